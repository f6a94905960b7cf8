"""Tournaments of bots and balance studies of game options: plan, run, summarise, report."""

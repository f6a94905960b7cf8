"""Tests of cruiselib.arena."""

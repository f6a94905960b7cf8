"""Dream Cruise (1-4 players): board families, set course, entertain guests, score routes."""

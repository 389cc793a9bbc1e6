"""A player's progress: the practice drills with their judgement and figures, and the record of games played.
Pure."""

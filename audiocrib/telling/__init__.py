"""Telling the game: the narrator, the one-key answers, counts in words and which sound cue goes with what.
Pure text and names made from views and events."""

"""Joint draws: commit-reveal rounds for rolls and shuffles, private dice, and watchers' records."""

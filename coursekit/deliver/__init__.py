"""What viewers open: the course page and the local server (the authoring studio is coursekit.studio)."""

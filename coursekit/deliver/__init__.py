"""What viewers and authors open: the course page, the local server, the studio."""

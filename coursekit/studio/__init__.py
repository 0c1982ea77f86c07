"""The authoring studio (``render.py studio``): its HTTP server, its work (builds, statuses, checks), its page."""

"""What viewers open: the course page and the local server (the authoring studio is coursekit.studio).

``PLATFORMS``, the video sites ``export`` writes chapters and subtitles for (``coursekit.deliver.export``),
lives here so that the command line can offer them without importing the exporter and its readers."""

PLATFORMS = ("youtube", "bilibili")

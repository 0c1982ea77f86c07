"""Lesson videos: scene videos joined, the delivered narration, chapters, side files, the manifest."""

"""The timeline plan: its types (model) and making it (build); its subtitles are coursekit.subtitles."""

"""The timeline plan: its types (model), making it (build), subtitle events and files."""

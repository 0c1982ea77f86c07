"""The ground floor: config, paths, errors, atomic writes, digests, locks, safe YAML, ffmpeg helpers."""

"""The project: one course opened for a command or the studio, which conducts its pipeline.

- ``base``: what a project holds (``ProjectBase``: the course root, the config, the output folder's
  layout, the course, the lexicon) and the preview's quality (``PREVIEW``);
- ``project``: ``Project``, the pipeline's stages on it (plans, preview, render, assemble, ...);
- ``speech``: the voice, the audio cache and the lexicon, the voice kept between plans;
- ``outputs``: what each command writes under the output folder, checked and locked.
"""

"""What the engine changes in Manim, and why: two attributes that draw nothing but cost time.

Applied once, when :mod:`coursekit.render.narrated_scene` is imported (by every scene render).

1. Manim's per-animation cache serialises every mobject on screen to JSON at each play call, about
   a third of a preview's time in a scene full of formulas. Two attributes of SVG/Typst/Text mobjects
   made most of that JSON: ``id_to_vgroup_dict`` (SVG element id -> VGroup of the very same glyphs as
   the submobjects) and each glyph's ``path_obj`` (the parsed SVG path its points were made from; the
   points themselves stay in the key). Leaving them out cannot change which frames a key stands for.
2. Every ``FadeIn``/``FadeOut``/``Transform`` deep-copies its mobject, and for a glyph of a ``Text``
   nine tenths of that copy is ``path_obj``: an svgelements path of segment and point objects.
   Manim reads it only while it makes the glyph's points (``VMobjectFromSVGPath.generate_points``,
   from ``__init__``) and never changes it afterwards, so a copy shares it instead of copying it.
   Measured here: copying five lines of Text takes 11 ms instead of 91 ms.
"""

from __future__ import annotations

from typing import Any

from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath
from manim.utils import hashing as _hashing

_hashing.KEYS_TO_FILTER_OUT.update({"id_to_vgroup_dict", "path_obj"})

_copy_mobject = VMobjectFromSVGPath.__deepcopy__  # Mobject's: every attribute deep-copied


def _share_path_obj(self: VMobjectFromSVGPath, memo: dict[int, Any]) -> VMobjectFromSVGPath:
    path = self.__dict__.get("path_obj")
    if path is not None:
        memo.setdefault(id(path), path)  # deepcopy takes what the memo holds as already copied
    return _copy_mobject(self, memo)


if not getattr(_copy_mobject, "shares_path_obj", False):  # once, even if this module is reloaded
    _share_path_obj.shares_path_obj = True  # type: ignore[attr-defined]
    VMobjectFromSVGPath.__deepcopy__ = _share_path_obj  # type: ignore[method-assign]

from coursekit.render import static_runs  # noqa: E402

static_runs.apply()

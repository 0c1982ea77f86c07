"""The project: one course opened once, which conducts its pipeline for the command line and the studio.

``Project.open(course_dir, config_file, overrides)`` (``coursekit.project.base``) holds the course root,
the config, the one ``MediaLayout`` of its output folder, the course and its lexicon (``reload()`` reads
them again: the studio does before every build); a ``Project`` adds its ``Speech`` (the voice, kept
between plans, the audio cache and the lexicon) and the pipeline's stages, each holding the locks of what
it writes (``coursekit.project.outputs``):

- ``plans(fps, lessons)``: plan lessons under their plans' course locks; with voice ``auto``, an online
  voice that gives up mid-way is replaced by the offline one and the plans are made again;
- ``preview(scene)``: a scene's preview at ``PREVIEW`` (480p15) and its last frame;
- ``render(...)``, ``assemble(...)`` and ``deliver(...)`` (both, from one version of the sources);
- ``check``, ``listening_check``, ``listen``, ``inspect``, ``subtitles``, ``export``: the other commands'.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from coursekit.assemble.lesson_video import assemble_course
from coursekit.assemble.subtitle_files import write_course_subtitles
from coursekit.content.glyphs import GLYPH_FIX, course_texts, font_cmap, missing_glyphs
from coursekit.core import voice_registry
from coursekit.core.errors import UserError, UserErrors
from coursekit.core.locks import course_lock, names
from coursekit.core.media_tools import extract_frame
from coursekit.core.paths import shown
from coursekit.deliver.export import export_course
from coursekit.deliver.handout import write_handout
from coursekit.deliver.page import page_for
from coursekit.deliver.serve import serve
from coursekit.deliver.widgets import course_widgets
from coursekit.plan.build import make_plans
from coursekit.plan.model import LessonPlan, ScenePlan
from coursekit.project import outputs, validation
from coursekit.project.base import PREVIEW, ProjectBase
from coursekit.project.speech import Speech
from coursekit.render import motion
from coursekit.render.batch import render_scenes
from coursekit.render.executors import SceneExecutor, open_executor
from coursekit.render.one_scene import deliver_remade
from coursekit.render.parked import park_preview
from coursekit.render.registry import scene_class
from coursekit.render.scene_contract import building, require_fit
from coursekit.render.soundtrack import write_scene_narration
from coursekit.render.viewer_check import Finding, Report, build_dry_run
from coursekit.speech import listening, takes
from coursekit.speech.voices.base import VoiceUnavailable
from coursekit.speech.voices.recorded import Recorded, fell_back_line


class Project(ProjectBase):
    """One course and its pipeline (module docstring)."""

    _speech: Speech | None = None

    def speech(self) -> Speech:
        """The voice (kept between calls, ``coursekit.project.speech``), the audio cache and the lexicon,
        ready for the config as it is now."""
        if self._speech is None:
            self._speech = Speech(lambda line: self.say(line))
        return self._speech.load(self.config.voice, self.layout.audio_cache, self.lexicon)

    def prepare(self, command: str, also: tuple[Path, ...] | list[Path] = ()) -> None:
        """Check the folders ``command`` writes and sweep what killed runs left (``outputs.prepare``), then
        everything else it needs that can be checked before its first expensive step (``validate``)."""
        outputs.prepare(self.layout, self.config.output, command, also)
        self.validate(command)

    def validate(self, command: str) -> None:
        """The validation pass of ``command`` (``coursekit.project.validation``): each part once until the
        project is read again (``reload``). A problem is one line, before any work."""
        validation.validate(self, command, self._validated)

    # -- plans --------------------------------------------------------------------------------------
    def plans(self, fps: int, lessons: list[str] | None = None) -> dict[str, tuple[LessonPlan, Path]]:
        """Plan ``lessons`` (default: every lesson) at ``fps``, holding their plans' course locks while
        they are written: each lesson's plan and its file. With voice ``auto``, if the online voice gives
        up mid-way (after its retries), every plan is made again with the offline voice, and that is said."""
        self.validate("plan")
        course, cfg = self.course, self.config
        lessons = lessons or self.lessons()
        with outputs.plan_locks(self.layout, fps, lessons, self.say):
            speech = self.speech()
            try:
                plans = make_plans(course, cfg, self.layout, fps, speech.voice, speech.cache, speech.lexicon, lessons)
            except VoiceUnavailable as exc:
                if cfg.voice.backend != voice_registry.AUTO:
                    raise
                voice = speech.fall_back(cfg.voice, exc)
                plans = make_plans(course, cfg, self.layout, fps, voice, speech.cache, speech.lexicon, lessons)
        if isinstance(speech.voice, Recorded):
            self.say(fell_back_line(speech.voice, [plan for plan, _ in plans.values()]))
        return plans

    def import_take(self, lesson: str, cue_id: str, source: Path, marks: dict[str, float]) -> takes.Take:
        """Store ``source`` as the author's take of cue ``cue_id`` (``<scene>.<cue>``) of ``lesson``
        (``coursekit.speech.takes.import_take``: trimmed, normalised, keyed by what the cue reads now)."""
        self.validate("record")
        found = self.course.lesson(self.lessons(lesson)[0])
        cues = {c.id: c for scene in found.scenes for c in scene.cues}
        if cue_id not in cues:
            raise UserError(
                f"cue '{cue_id}' is not a cue of lesson {lesson}; give its full id, <scene>.<cue> "
                f"({', '.join(list(cues)[:4])}{', …' if len(cues) > 4 else ''})"
            )
        return takes.import_take(source, found.id, cues[cue_id], marks)

    # -- checks ---------------------------------------------------------------------------------------
    def check(self) -> None:
        """What a render needs, without one: the validation pass of ``check`` (``coursekit.project.validation``:
        the narration and its figures, the lexicon, every scene against the class that draws it, the page's
        widgets, the voice's model files), and every character of the subtitles and titles has a glyph in the
        course font (``coursekit.content.glyphs``; else one line per character and place: the player would
        draw it from another font)."""
        self.validate("check")
        font = self.config.course.font
        missing = missing_glyphs(course_texts(self.config.course.title, self.course, self.lexicon), font_cmap(font))
        lines = [f"{m.line(font)}; {GLYPH_FIX}" for m in missing] + takes.stale_lines(self.course)
        if lines:
            raise UserErrors(lines)

    def listening_check(self, lessons: list[str], sample: int | None = None):
        """The listening check of ``lessons`` (``coursekit.speech.listening``): each cue's audio of a fixed
        sample (synthesised or cached) transcribed offline and scored. Returns the report and the recogniser."""
        speech = self.speech()
        voice, cache, lexicon = speech.voice, speech.cache, speech.lexicon
        try:
            cues = listening.sample_cues(self.course, lessons, sample)
            t0 = time.perf_counter()
            listening.prefetch(self.course, self.config, cues, voice, cache, lexicon, say=self.say)
            items = listening.synthesise(cues, voice, cache, lexicon)
            synth_s = time.perf_counter() - t0
            recogniser = listening.Recogniser(
                cache_root=self.layout.transcripts, say=self.say, hotwords=self.config.course.listening_words
            )
            report = listening.check_items(items, recogniser, voice.describe())
            report.synth_s = synth_s
        finally:
            voice.close()
        return report, recogniser

    def inspect(self, scene_ids: list[str] | None = None) -> Iterator[tuple[str, Report]]:
        """The viewer check (``coursekit.render.viewer_check``) and the motion check (``coursekit.render.motion``,
        plain Mandarin's turn words) of the scenes named (default: every scene) on their lessons' preview plans
        (``PREVIEW``'s timing), each scene's report as it is made, from one dry run."""
        course = self.course
        wanted = [course.scene(s) for s in scene_ids] if scene_ids else list(course.scenes.values())
        require_fit(course, [s.id for s in wanted])
        plans: dict[str, LessonPlan] = {}
        for scene in wanted:
            lesson = course.lesson_of(scene.id).id
            if lesson not in plans:
                plans[lesson] = self.plans(PREVIEW.fps, [lesson])[lesson][0]
            plan = plans[lesson].scene(scene.id)
            with building(scene.id, plan.cls):
                cls = scene_class(plan.cls)
                built, report = build_dry_run(cls, plan, media_dir=self.layout.inspect, rules=cls.viewer_rules())
            turns = motion.check_scene(built)  # what turns against its cue's words (rule turn)
            report.findings += [Finding(f.scene, f.cue, f.frame, f.rule, f.message) for f in turns]
            yield scene.id, report

    # -- previews ---------------------------------------------------------------------------------------
    def preview_plan(self, scene_id: str) -> ScenePlan:
        """The scene checked against its class (``require_fit``), then its lesson planned at ``PREVIEW``'s
        frame rate: the scene's plan."""
        course = self.course
        lesson = course.lesson_of(course.scene(scene_id).id).id
        require_fit(course, [scene_id])
        return self.plans(PREVIEW.fps, [lesson])[lesson][0].scene(scene_id)

    def preview(self, scene: str | ScenePlan, last_frame: bool = True) -> tuple[Path, Path | None]:
        """The preview of ``scene`` (its id: planned first, ``preview_plan``; or its plan) at ``PREVIEW``
        with narration and soft subtitles, and with ``last_frame`` the PNG of its last frame, both under
        the preview's course lock: (video, frame or None). Remade from the last preview's stretches
        (``deliver_remade``): only what changed is rendered again, two stretches at a time."""
        plan = self.preview_plan(scene) if isinstance(scene, str) else scene
        out = self.layout.preview_video(plan.id)
        if not last_frame:
            return deliver_remade(self.config, self.layout, plan, PREVIEW.quality, out), None
        with course_lock(self.layout.root, names.output(self.layout.root, out), f"writing {shown(out)}", self.say):
            deliver_remade(self.config, self.layout, plan, PREVIEW.quality, out)
            png = extract_frame(out, plan.frames - 1, self.layout.preview_frame(plan.id))
        return out, png

    def remake_preview(
        self, plan: ScenePlan, provisional: Callable[[Path], None] | None = None, stats: dict | None = None
    ) -> Path:
        """The studio's preview of ``plan`` (``deliver_remade``): only the stretch of frames an edit changed
        rendered again, ``provisional(video)`` called when a provisional preview is in place first; Manim
        processes are started ahead for the next edit."""
        out = self.layout.preview_video(plan.id)
        return deliver_remade(self.config, self.layout, plan, PREVIEW.quality, out, provisional, stats, warm=True)

    def park_preview(self, plan: ScenePlan, short: str) -> bool:
        """A Manim process waiting at cue ``short`` of the preview ``plan`` for its next edit
        (``one_scene.park_preview``)."""
        return park_preview(self.config, self.layout, plan, PREVIEW.quality, short)

    def listen(self, scene_id: str) -> Path:
        """The scene's narration track alone, from its lesson's plan at ``PREVIEW``'s frame rate."""
        lesson = self.course.lesson_of(self.course.scene(scene_id).id).id
        scene = self.plans(PREVIEW.fps, [lesson])[lesson][0].scene(scene_id)
        out = self.layout.preview_narration(scene_id)
        with course_lock(self.layout.root, names.output(self.layout.root, out), f"writing {shown(out)}", self.say):
            write_scene_narration(scene, out)
        return out

    # -- delivery ------------------------------------------------------------------------------------------
    @contextmanager
    def _delivering(self) -> Iterator[tuple[SceneExecutor, dict[str, tuple[LessonPlan, Path]]]]:
        """The executor (``render.executor``), opened before planning so that a missing or unreachable
        Dask scheduler, or a worker with other versions, is reported before any work; and every lesson
        planned at the config's frame rate, their plans' locks held until the run ends (what is delivered
        must stay what the plan says)."""
        fps = self.config.video.frame_rate
        with (
            open_executor(self.config, self.layout) as executor,
            outputs.plan_locks(self.layout, fps, self.lessons(), self.say),
        ):
            yield executor, self.plans(fps)

    def render(
        self, lesson: str | None = None, scene: str | None = None, guard: Callable[[], None] | None = None
    ) -> list[Path]:
        """Render the scenes of every lesson, of ``lesson`` or the one ``scene`` at the config's quality
        (``render_scenes``; ``guard``, a run's ``RunSources.check``), every lesson planned first."""
        course = self.course
        lessons, scenes = self.lessons(lesson), None
        if scene is not None:
            lessons, scenes = [course.lesson_of(course.scene(scene).id).id], [scene]
        require_fit(course, scenes or [s.id for l in lessons for s in course.lesson(l).scenes])
        with self._delivering() as (executor, plans):
            return render_scenes(
                self.config, self.layout, [plans[l][0] for l in lessons], scenes, executor=executor, guard=guard
            )

    def assemble(self, plans: list[LessonPlan], sources: dict | None = None) -> list[Path]:
        """The lesson videos of ``plans`` whose scenes are all rendered, the manifest (recording ``sources``)
        and the course page, under the course files' lock: the delivery changes as one unit, the manifest
        last, once every lesson and the page are made (``assemble_course``)."""
        widgets = course_widgets()  # read before anything is made (validate("course") checked them)
        with outputs.course_files_lock(self.layout, self.say):
            page = page_for(self.layout.course, widgets)
            return assemble_course(self.config, self.layout, self.course, plans, sources, page=page)

    def deliver(self, sources) -> list[Path]:
        """Plan, render and assemble the whole course from one version of its ``sources`` (``RunSources``):
        every scene job checks them (an edit saved meanwhile stops the run with one line, the finished
        scenes kept) and the manifest records their digest. The plans' locks are held for the whole run.
        A scene whose class is not written yet is skipped, and so is its lesson's video."""
        # every drawn scene fits its class (its module imported) and the page's widgets are read, now: not
        # after the last render (``coursekit.project.validation``)
        self.validate("course")
        with self._delivering() as (executor, plans):
            lesson_plans = [plans[l][0] for l in self.lessons()]
            render_scenes(
                self.config, self.layout, lesson_plans, None, only_existing=True, executor=executor, guard=sources.check
            )
            sources.check()
            return self.assemble(lesson_plans, sources.record())

    def subtitles(self, lesson: str | None = None) -> list[Path]:
        """Each lesson's (or ``lesson``'s) SRT and VTT written again from its plan, without rendering, and
        put into its delivered video (``write_course_subtitles``: it holds the locks it needs)."""
        return write_course_subtitles(self.config, self.layout, self.course, self.lessons(lesson))

    def serve(self, port: int) -> None:
        """Serve the delivered course (``coursekit.deliver.serve``) once it is checked (``validate``)."""
        self.validate("serve")
        serve(self.layout.course, port)

    def export(self, platform: str, lesson: str | None = None) -> list[Path]:
        """The platform's files for each delivered lesson (``coursekit.deliver.export``), from the delivered
        course, under the course files' lock (a ``course`` or ``subtitles`` beside it waits, or it waits)."""
        with outputs.course_files_lock(self.layout, self.say):
            if platform == "handout":  # the students' PDF (coursekit.deliver.handout)
                return [write_handout(self.layout, lesson)]
            return export_course(self.layout, platform, lesson)

"""Reusable lesson mobjects. Every value they draw comes from mathcore."""

from scenes.mobjects.clock_row import ClockRow
from scenes.mobjects.heat_map import HeatMap
from scenes.mobjects.matrix_readout import MatrixReadout
from scenes.mobjects.qk_pair import QKPair
from scenes.mobjects.readout import LabeledNumber
from scenes.mobjects.score_curve import ScoreCurve
from scenes.mobjects.spin_arrow import SpinArrow, TurningArrow
from scenes.mobjects.unit_circle_pointer import UnitCirclePointer

__all__ = [
    "LabeledNumber",
    "UnitCirclePointer",
    "ClockRow",
    "QKPair",
    "MatrixReadout",
    "HeatMap",
    "ScoreCurve",
    "SpinArrow",
    "TurningArrow",
]

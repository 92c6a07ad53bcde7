"""Evaluation network files: read, write, and which games a network evaluates.

A network file (``.npz``) holds the integer weights that :mod:`.kernels.nnue` runs (an array
of ``NET_ROWS`` rows by the hidden width), the output's bias, the weight sets it was trained
for (``makruk``, ``ouk``: the games of :func:`.weights.eval_set`; the others keep the
weighted terms), and a line about where it came from. ``kradan tune train`` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._core.layout import PIECE_TYPE_NB
from ..errors import InputFileError
from .weights import SETS

# The layout of the integer network (:mod:`.kernels.nnue` runs it), kept here where nothing
# compiled is imported, so that players and clients read network files without the search.
#: inputs: two relative colours x six piece types x 64 squares
FEATURES = 2 * PIECE_TYPE_NB * 64
ROW_BIAS = FEATURES
ROW_OUT_US = FEATURES + 1
ROW_OUT_THEM = FEATURES + 2
NET_ROWS = FEATURES + 3
#: the accumulator's fixed-point scale: an accumulator of QA is 1.0 (the clip's top)
QA = 255
#: the output weights' fixed-point scale (fine: each of the 2H terms is worth up to SCALE
#: centipawns)
QB = 1024
#: centipawns per unit of the network's output
SCALE = 400
#: output weights stay below this in size, so the output's sum fits 32 bits
OUTPUT_LIMIT = 2**15
#: the most pieces a position holds, for the feature lists of the training data
MAX_PIECES = 32

#: the format tag every network file carries
FORMAT = "kradan-nnue-1"
#: the network kradan plays with unless told otherwise (absent: the weighted terms)
DEFAULT_NETWORK_FILE = Path(__file__).with_name("network.npz")


@dataclass(frozen=True)
class Network:
    """A network's integer weights (``NET_ROWS`` x hidden, int32), its output bias, the
    weight sets it evaluates, and where it came from."""

    weights: np.ndarray
    bias: int
    sets: tuple[str, ...]
    about: str = ""

    @property
    def hidden(self) -> int:
        return int(self.weights.shape[1])

    def evaluates(self, set_index: int) -> bool:
        """Whether this network evaluates the positions of weight set ``set_index``."""
        return SETS[set_index] in self.sets


def save_network(network: Network, path: str | Path) -> None:
    """Write ``network`` to ``path`` (weights as int16 where they fit).

    :raises InputFileError: when the file cannot be written.
    """
    weights = network.weights
    small = np.abs(weights).max(initial=0) < 2**15
    try:
        np.savez_compressed(
            path, format=FORMAT, weights=weights.astype(np.int16 if small else np.int32),
            bias=np.int64(network.bias), sets=np.array(network.sets), about=network.about,
        )  # fmt: skip
    except OSError as error:
        raise InputFileError(f"cannot write {str(path)!r}: {error.strerror}") from error


def load_network(path: str | Path) -> Network:
    """The network in the file ``path``.

    :raises InputFileError: for a file that cannot be read or holds no kradan network.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            tag = str(data["format"])
            weights = np.ascontiguousarray(data["weights"], dtype=np.int32)
            bias = int(data["bias"])
            sets = tuple(str(name) for name in data["sets"])
            about = str(data["about"])
    except (OSError, ValueError, KeyError) as error:
        raise InputFileError(f"cannot read a network from {str(path)!r}: {error}") from error
    if tag != FORMAT:
        raise InputFileError(f"{str(path)!r} is a {tag!r} file, not {FORMAT!r}")
    if weights.ndim != 2 or weights.shape[0] != NET_ROWS or weights.shape[1] < 1:
        raise InputFileError(f"{str(path)!r} holds weights of shape {weights.shape}, not "
                             f"({NET_ROWS}, hidden)")  # fmt: skip
    outputs = weights[ROW_OUT_US : ROW_OUT_THEM + 1]
    if np.abs(outputs).max() >= OUTPUT_LIMIT:
        raise InputFileError(f"{str(path)!r} has output weights beyond +/-{OUTPUT_LIMIT}")
    unknown = [name for name in sets if name not in SETS]
    if unknown or not sets:
        raise InputFileError(f"{str(path)!r} names weight sets {list(sets)}; known: {list(SETS)}")
    return Network(weights, bias, sets, about)


def default_network() -> Network | None:
    """The network kradan ships, or ``None`` when it ships none."""
    return load_network(DEFAULT_NETWORK_FILE) if DEFAULT_NETWORK_FILE.exists() else None


__all__ = [
    "DEFAULT_NETWORK_FILE",
    "FORMAT",
    "Network",
    "default_network",
    "load_network",
    "save_network",
]

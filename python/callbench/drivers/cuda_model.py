"""The model the torch GPU rows move to the device: our MLP from its state_dict, or in a
``--torch`` run the user's program."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from callbench.driver_options import Options
from callbench.errors import UsageError

if TYPE_CHECKING:
    import torch


def program_on(path: Path, device: torch.device | str) -> Any:
    """The user's program at ``path`` moved to ``device`` with ``move_to_device_pass`` (which
    also moves the constants the graph makes itself, such as a ``torch.zeros`` with a device
    burnt in, where ``module().to(device)`` would leave them behind), as its module."""
    from torch.export.passes import move_to_device_pass

    from callbench.driverkit.model import model_error
    from callbench.model.user_torch_archive import load

    try:
        return move_to_device_pass(load(path), device).module()
    except UsageError as exc:  # the harness checked it; a file changed since is named here
        raise model_error(path, exc) from None


def model_on(options: Options, device: torch.device) -> tuple[Callable[..., Any], Path]:
    """The model on ``device`` and the file it came from: the user's program in a ``--torch``
    run, else our MLP (any width of the family) from its state_dict, in eval mode."""
    from callbench.drivers.torch_common import models_path
    from callbench.model.artifacts import STATE_DICT
    from callbench.model.user_torch import PROGRAM
    from callbench.model.wide_mlp import mlp_from_state_dict

    program = options.models / PROGRAM
    if program.is_file():
        return program_on(program, device), program
    path = models_path(options, STATE_DICT)
    return mlp_from_state_dict(path).to(device), path

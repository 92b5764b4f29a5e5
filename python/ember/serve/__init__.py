"""Ember models served by Ray Serve (``pip install "ember-runtime[serve]"``).

``ModelDeployment`` (``ember.serve.deployment``) is a Ray Serve deployment;
``EmberModel`` (``ember.serve.model``) is what each replica holds, usable
without Ray. Importing this package does not import Ray: ``ModelDeployment``
is loaded on first use, and raises ImportError naming the extra when Ray is
not installed. ``docs/serving.md`` describes the HTTP interface and the
``ember-serve`` command.
"""

from __future__ import annotations

from .model import EmberModel, Failed, parse_parameters
from .signature import Signature, parse_declaration

__all__ = ["EmberModel", "Failed", "ModelDeployment", "Signature",
           "parse_declaration", "parse_parameters"]


def __getattr__(name):
    if name == "ModelDeployment":
        try:
            from .deployment import ModelDeployment
        except ImportError as error:
            raise ImportError(
                "ember.serve.ModelDeployment needs Ray Serve: pip install "
                f"'ray[serve]' (or ember-runtime[serve]): {error}") from error
        return ModelDeployment
    raise AttributeError(f"module 'ember.serve' has no attribute {name!r}")

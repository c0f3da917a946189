"""How the operation server is confined: bubblewrap where it works, else a fallback said loudly."""

from __future__ import annotations

import pytest

from speckit.sandbox import Isolation, SandboxConfig, probe_isolation
from speckit.sandbox import isolation as isolation_module


def test_the_fallback_is_named_and_warned_about():
    found = probe_isolation(SandboxConfig(bubblewrap=False))
    assert found.mechanism in (
        isolation_module.MOUNT_NAMESPACE,
        isolation_module.ANOTHER_USER,
        isolation_module.RESOURCE_LIMITS,
    )
    assert not found.complete
    assert found.warning.startswith("WARNING: ") and "\n" not in found.warning
    assert "Threat model" in found.warning


def test_a_missing_bwrap_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(isolation_module, "bwrap_path", lambda: None)
    found = probe_isolation(SandboxConfig())
    assert not found.complete
    assert isolation_module.INSTALL in found.warning


@pytest.mark.skipif(isolation_module.bwrap_path() is None, reason="bubblewrap is not installed")
def test_bubblewrap_is_used_where_it_works():
    assert probe_isolation(SandboxConfig()) == Isolation(isolation_module.BUBBLEWRAP, True, None)

"""`GET /version`: a real server process answers, without authentication, the manifest of the
certification bundle, and every hash in it is the SHA-256 of the file the server loaded."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest

from reelforge.evidence import manifest
from reelforge.server.api.views import VersionView

from .harness import Server, write_config

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "reelforge"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    work = tmp_path_factory.mktemp("version")
    running = Server(f"sqlite:///{work / 'version.db'}", work, write_config(work)).start()
    yield running
    running.stop()


def test_version_answers_the_manifest_without_authentication(server: Server) -> None:
    answer = httpx.get(f"{server.base}/version", timeout=10)
    assert answer.status_code == 200, answer.text
    view = VersionView.model_validate_json(answer.text)
    assert view.model_dump() == manifest.build()  # the bundle's manifest, file for file
    for name, digest in view.files.items():
        assert digest == hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest(), name
    text = "".join(f"{d}  {n}\n" for n, d in view.files.items())
    assert view.manifest_sha256 == hashlib.sha256(text.encode()).hexdigest()
    for must in ("engine/rng.py", "engine/lines.py", "games/cluedo/cluedo-v1.toml",
                 "games/cops_n_robbers/choices.py", "server/services/rounds.py"):
        assert must in view.files, must


def test_the_openapi_document_names_the_version_model(server: Server) -> None:
    document = httpx.get(f"{server.base}/openapi.json", timeout=10).json()
    ok = document["paths"]["/version"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"]["$ref"].endswith("/VersionView")
    assert "VersionView" in document["components"]["schemas"]

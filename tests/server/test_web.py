"""The server serves the built browser client: `/` and `/play` send web/dist's index.html, its
hashed bundles come from /assets with their MIME types, and no request path leaves that
folder. Without a build, `/` still leads to /play (the launch token's instructions)."""

from __future__ import annotations

import httpx
import pytest

from tests.server.harness import Server, write_config


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Server:
    work = tmp_path_factory.mktemp("web")
    dist = work / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>client</title><div id=app></div>")
    (dist / "backoffice.html").write_text("<!doctype html><title>office</title><main></main>")
    (dist / "assets" / "index-abc123.js").write_text("console.log(1)")
    (dist / "assets" / "index-abc123.css").write_text("body{}")
    (work / "secret.txt").write_text("not for the web")
    running = Server(f"sqlite:///{work / 'web.db'}", work, write_config(work),
                     env={"REELFORGE_WEB_DIR": str(dist)}).start()
    yield running
    running.stop()


def test_the_client_is_served_at_root_and_play(built: Server) -> None:
    for path in ("/", "/play?launch=abc"):
        page = httpx.get(built.base + path)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "<title>client</title>" in page.text
    demo = httpx.get(built.base + "/demo?operator=demo", follow_redirects=False)
    assert demo.status_code == 303 and demo.headers["location"].startswith("/play?launch=")


def test_the_back_office_page_is_served_at_backoffice(built: Server) -> None:
    page = httpx.get(built.base + "/backoffice")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<title>office</title>" in page.text
    # the page is public (it signs in by itself); its API is not
    assert httpx.get(built.base + "/backoffice/api/meters").status_code == 401


def test_assets_have_their_mime_types_and_stay_in_their_folder(built: Server) -> None:
    js = httpx.get(built.base + "/assets/index-abc123.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    css = httpx.get(built.base + "/assets/index-abc123.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    for hostile in ("/assets/../secret.txt", "/assets/..%2F..%2Fsecret.txt",
                    "/assets/%2e%2e/index.html", "/assets/missing.js"):
        answer = httpx.get(built.base + hostile)
        assert answer.status_code == 404, hostile
        assert "not for the web" not in answer.text
        assert answer.json()["error"]["code"] == "NOT_FOUND"


def test_without_a_build_root_leads_to_play(tmp_path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'bare.db'}", tmp_path, write_config(tmp_path),
                    env={"REELFORGE_WEB_DIR": str(tmp_path / "nothing")}).start()
    try:
        root = httpx.get(server.base + "/", follow_redirects=False)
        assert root.status_code == 307 and root.headers["location"] == "/play"
        play = httpx.get(server.base + "/play?launch=abc")
        assert play.status_code == 200 and "POST it to" in play.text
    finally:
        server.stop()

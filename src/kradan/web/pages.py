"""The pages of ``kradan serve``: what the browser shows, around the JSON API of the app.

* ``GET /``: the new-game page (every registered game, its rule options with their defaults,
  the opponent: the engine at a level 1-20, a human on this screen or by invitation; colour and
  clock), and the latest games;
* ``GET /games/{id}``: the board page; ``static/js/`` fills it from the API and the game's
  websocket;
* ``GET /analysis``: the analysis board (``static/js/analysis-page.js``), on the API of
  :mod:`kradan.web.study` and the engine's analysis socket; ``GET /editor``: the board editor
  (``static/js/editor-page.js``);
* ``GET /archive``: the game archive (``static/js/archive-page.js``): PGN imported, games found
  and opened in the analysis board, on the API of :mod:`kradan.web.archive_api`;
* ``GET /assets/pieces.css`` and ``/assets/<image>.svg``: kradan's own drawings for chessgroundx
  (:mod:`kradan.web.assets`); ``GET /assets/position.svg?variant=...&fen=...``: the picture of
  a position, drawn by :func:`kradan.svg.board`;
* ``GET /static/<path>``: the files of ``static/`` (the chessgroundx bundle, the client's ES
  modules in ``js/``, the style sheets).

The pages hold no inline script or style, so they run under ``Content-Security-Policy:
default-src 'self'``. The router reads no game from storage: the page of a game is the same for
every game, and the browser asks the API for the rest.

Every string the pages show goes through gettext (:mod:`kradan.web.i18n`): the templates are
Jinja templates with the ``i18n`` extension, one environment per language; the names of the
games, rule options and their values are marked with ``N_`` where they are declared (the rule
sets and their :class:`~kradan.rulesets.Option`) and translated here per request;
the page carries the browser's catalog in a ``<script type="application/json">`` block, which
is data, not a script, and so allowed by the policy. ``POST /language`` is the language picker
of the page header: it sets the ``kradan_lang`` cookie.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from enum import Enum
from functools import cache
from html import escape
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, quote

import jinja2
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from .. import svg
from ..errors import KradanError
from ..games import Game, find_game, game_names
from ..rulesets import Option
from . import assets, i18n
from .server_settings import runtime_settings

router = APIRouter()
#: the game the new-game page offers first
DEFAULT_GAME = "makruk"

#: what ``/static/`` serves, by suffix
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".map": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}
#: a game's public id (12 url-safe characters; a little slack for other stores)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
CACHE = "public, max-age=3600"


def _package_files(folder: str) -> dict[str, bytes]:
    """The files under ``kradan/web/<folder>``, subfolders included, by their path in it
    (``board.min.js``, ``js/game-page.js``)."""
    found: dict[str, bytes] = {}
    pending = [("", resources.files("kradan.web").joinpath(folder))]
    while pending:
        prefix, root = pending.pop()
        for entry in root.iterdir():
            if entry.is_file():
                found[prefix + entry.name] = entry.read_bytes()
            elif entry.is_dir() and not entry.name.startswith(("_", ".")):
                pending.append((f"{prefix}{entry.name}/", entry))
    return found


@cache
def static_files() -> dict[str, bytes]:
    """The files of ``kradan/web/static`` by their path in it (the client's modules are in
    ``js/``)."""
    return _package_files("static")


#: what translates a string: ``gettext`` of the request's language
Translate = Callable[[str], str]


@cache
def environment(language: str) -> jinja2.Environment:
    """The Jinja environment of the templates in ``language`` (its gettext translations
    installed, new style: ``_()`` escapes and formats)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("kradan.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(i18n.translations(language), newstyle=True)  # type: ignore[attr-defined]
    return env


def request_language(request: Request) -> str:
    """The language the pages of ``request`` are shown in (see :func:`kradan.web.i18n.choose`)."""
    return i18n.choose(request.headers.get("accept-language"), request.cookies.get(i18n.COOKIE))


def render(name: str, language: str, path: str, **values: Any) -> HTMLResponse:
    """The page ``templates/<name>`` in ``language``, with the language picker (which comes
    back to ``path``) and the browser's catalog."""
    page = (
        environment(language)
        .get_template(name)
        .render(
            lang=language,
            languages=[(code, i18n.language_name(code)) for code in i18n.languages()],
            here=path,
            messages_json=Markup(i18n.client_catalog(language)),
            **values,
        )
    )
    return HTMLResponse(
        page, headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"}
    )


# --- what the client needs to know of each game --------------------------------------------------


def describe(game: Game) -> dict[str, Any] | None:
    """What the board needs to know of ``game``: its title and what its ``browser`` hook says
    (its family, ``chess`` or ``alquerque``, its board picture, its size, chessgroundx's premove
    rules, the pocket and the promoted piece); ``None`` for a game without the hook, which the
    browser does not offer (one registered from outside)."""
    board = game.browser_board()
    return None if board is None else {"title": game.title, **board}


def drawable_games() -> list[Game]:
    """The registered games the browser board can draw, in the registry's order."""
    return [game for game in map(find_game, game_names()) if game.browser_board() is not None]


def descriptions_json(gettext: Translate = str) -> str:
    """:func:`describe` of every game the board can draw, as JSON, the titles translated by
    ``gettext``."""
    found = {}
    for game in drawable_games():
        description = describe(game)
        assert description is not None
        found[game.name] = {**description, "title": gettext(game.title)}
    return json.dumps(found, ensure_ascii=False)


# --- the new-game page ------------------------------------------------------------------------

# The names of the games and the words of the rule options live where they are declared (the
# rule sets' titles, :class:`kradan.rulesets.Option`'s label and value labels), in English,
# marked there with ``N_``; the English is the gettext message id, translated here. An option
# without a label is shown as kradan writes it ("sut khun").


def _label(name: str) -> str:
    return name.replace("_", " ")


def option_label(name: str, option: Option, gettext: Translate = str) -> str:
    """What the rule option ``name`` is, in the language of ``gettext``."""
    return gettext(option.label) if option.label else _label(name)


def value_label(option: Option, member: Enum, gettext: Translate = str) -> str:
    """What the value ``member`` of an enumerated rule option means."""
    label = option.value_labels.get(str(member.value))
    return gettext(label) if label else _label(str(member.value))


def _value_text(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def option_control(
    game: Game, name: str, option: Option, default: object, gettext: Translate = str
) -> str:
    """The form control of one rule option, with its default marked as ``data-default``; the
    labels are translated by ``gettext``, and kradan's name of the option is its ``title``."""
    field = f"{game.name}.{name}"
    ident = escape("opt-" + re.sub(r"[^A-Za-z0-9_-]", "-", field))
    common = (
        f'name="{escape(field)}" data-option="{escape(name)}" '
        f'data-default="{escape(_value_text(default))}"'
    )
    label = escape(option_label(name, option, gettext))
    named = f'title="{escape(name)}"'
    if option.kind is bool:
        checked = " checked" if default else ""
        return (
            f'<label class="option option-bool" for="{ident}" {named}>'
            f'<input type="checkbox" id="{ident}" data-kind="bool" {common}{checked}> '
            f"{label}</label>"
        )
    if option.kind is int:
        return (
            f'<label class="option option-int" for="{ident}" {named}><span>{label}</span> '
            f'<input type="number" id="{ident}" min="0" step="1" data-kind="int" {common} '
            f'value="{escape(_value_text(default))}"></label>'
        )
    if isinstance(option.kind, type) and issubclass(option.kind, Enum):
        choices = []
        for member in option.kind:
            selected = " selected" if member == default else ""
            value = escape(str(member.value))
            text = escape(value_label(option, member, gettext))
            choices.append(f'<option value="{value}" title="{value}"{selected}>{text}</option>')
        return (
            f'<label class="option option-enum" for="{ident}" {named}><span>{label}</span> '
            f'<select id="{ident}" data-kind="enum" {common}>{"".join(choices)}</select></label>'
        )
    chosen = default if isinstance(default, tuple) else ()
    boxes = []
    for choice in option.choices:
        checked = " checked" if choice in chosen else ""
        boxes.append(
            f'<label class="choice"><input type="checkbox" data-kind="choice" '
            f'value="{escape(choice)}"{checked}> {escape(choice)}</label>'
        )
    what = escape(gettext(option.choice_name))
    return (
        f'<fieldset class="option option-tuple" data-kind="tuple" {common} {named}>'
        f"<legend>{label} ({what})</legend>{''.join(boxes)}</fieldset>"
    )


def rule_options(game: Game, gettext: Translate = str) -> str:
    """The fieldset of ``game``'s rule options (those that apply to it)."""
    defaults = game.option_defaults()
    controls = [
        option_control(game, name, option, defaults[name], gettext)
        for name, option in game.options.items()
        if option.applies(game.rules)
    ]
    return (
        f'<fieldset class="rules" data-variant="{escape(game.name)}" hidden>'
        f"<legend>{escape(gettext(game.title))}</legend>{''.join(controls)}</fieldset>"
    )


def new_game_page_in(language: str, path: str = "/", notice: str = "") -> HTMLResponse:
    """The new-game page in ``language``, with Makruk chosen (made anew: a game may be
    registered later), and the admin's ``notice`` ('': none)."""
    gettext = i18n.translations(language).gettext
    games = drawable_games()
    choices = "".join(
        f'<option value="{escape(game.name)}"{" selected" * (game.name == DEFAULT_GAME)}>'
        f"{escape(gettext(game.title))}</option>"
        for game in games
    )
    return render(
        "new.html",
        language,
        path,
        games_json=descriptions_json(gettext),
        game_choices=Markup(choices),
        rule_options=Markup("".join(rule_options(game, gettext) for game in games)),
        notice=notice,
    )


@router.get("/", response_class=HTMLResponse)
async def new_game_page(request: Request) -> HTMLResponse:
    """The new-game page, with the notice an admin set (:mod:`.server_settings`)."""
    notice = str((await runtime_settings(request).current())["notice"])
    return new_game_page_in(request_language(request), notice=notice)


@router.get("/admin", response_class=HTMLResponse)
async def admin_page(request: Request) -> HTMLResponse:
    """The admin's page (the browser asks the admin API, which refuses anyone else)."""
    return render("admin.html", request_language(request), "/admin")


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(game_id: str, request: Request) -> HTMLResponse:
    """The board page of one game (the browser fetches the game itself)."""
    language = request_language(request)
    gettext = i18n.translations(language).gettext
    if not GAME_ID.fullmatch(game_id):
        detail = gettext("There is no game {game}.").format(game=repr(game_id[:64]))
        raise HTTPException(status_code=404, detail=detail)
    return render(
        "game.html",
        language,
        f"/games/{game_id}",
        game_id=game_id,
        games_json=descriptions_json(gettext),
    )


@router.get("/analysis", response_class=HTMLResponse)
async def analysis_page(request: Request) -> HTMLResponse:
    """The analysis board (the browser reads its start from the address and asks the API)."""
    language = request_language(request)
    gettext = i18n.translations(language).gettext
    return render("analysis.html", language, "/analysis", games_json=descriptions_json(gettext))


@router.get("/archive", response_class=HTMLResponse)
async def archive_page(request: Request) -> HTMLResponse:
    """The game archive: PGN imported, games searched (the browser reads the search from the
    address and asks the API)."""
    language = request_language(request)
    gettext = i18n.translations(language).gettext
    return render("archive.html", language, "/archive", games_json=descriptions_json(gettext))


@router.get("/editor", response_class=HTMLResponse)
async def editor_page(request: Request) -> HTMLResponse:
    """The board editor (the browser reads the position from the address)."""
    language = request_language(request)
    gettext = i18n.translations(language).gettext
    return render("editor.html", language, "/editor", games_json=descriptions_json(gettext))


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request) -> HTMLResponse:
    """Sign in, or make an account (while sign-up is open: :mod:`.server_settings`)."""
    open_ = bool((await runtime_settings(request).current())["sign_up_open"])
    return render("login.html", request_language(request), "/login", sign_up_open=open_)


@router.get("/ratings", response_class=HTMLResponse)
async def ratings_page(request: Request) -> HTMLResponse:
    """The leaderboards of every game family."""
    return render("ratings.html", request_language(request), "/ratings")


@router.get("/@/{username}", response_class=HTMLResponse)
async def player_page(username: str, request: Request) -> HTMLResponse:
    """An account's page (the browser asks the API for its ratings and games)."""
    language = request_language(request)
    if len(username) > 64:
        detail = i18n.translations(language).gettext("There is no account {name}.")
        raise HTTPException(status_code=404, detail=detail.format(name=repr(username[:64])))
    return render("player.html", language, f"/@/{quote(username)}", username=username)


#: where the language picker may send the browser back to: a path of this server
LOCAL_PATH = re.compile(r"/(?![/\\])[^\s]{0,300}")
#: how long the picked language is remembered: a year
COOKIE_AGE = 365 * 24 * 3600


@router.post("/language", include_in_schema=False)
async def pick_language(request: Request) -> RedirectResponse:
    """The language picker of the page header (a form of buttons ``language`` and a hidden
    ``next``): remembers the language in the ``kradan_lang`` cookie and goes back to ``next``."""
    form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
    language = (form.get("language") or [""])[0]
    back = (form.get("next") or ["/"])[0]
    if language not in i18n.languages():
        offered = ", ".join(i18n.languages())
        raise HTTPException(status_code=400, detail=f"no language {language[:20]!r}: {offered}")
    if not LOCAL_PATH.fullmatch(back):
        back = "/"
    response = RedirectResponse(back, status_code=303)
    response.set_cookie(
        i18n.COOKIE, language, max_age=COOKIE_AGE, path="/", samesite="lax", httponly=True
    )
    return response


# --- pictures and files -----------------------------------------------------------------------


@router.get("/assets/pieces.css")
async def pieces_css() -> Response:
    """The style sheet that draws the pieces and boards with kradan's images."""
    return Response(
        assets.pieces_css(), media_type="text/css; charset=utf-8", headers={"Cache-Control": CACHE}
    )


def _square_pair(text: str | None) -> tuple[str, str] | None:
    if not text:
        return None
    parts = text.split(",")
    if len(parts) != 2:
        raise HTTPException(
            status_code=400, detail=f"invalid lastmove {text!r}: expected 'from,to'"
        )
    return parts[0], parts[1]


@router.get("/assets/position.svg")
async def position_svg(
    variant: str = Query(max_length=40),
    fen: str = Query(max_length=200),
    flipped: bool = False,
    labels: str = Query("latin", max_length=10),
    lastmove: str | None = Query(None, max_length=10),
    check: str | None = Query(None, max_length=3),
) -> Response:
    """The picture of the position ``fen`` of ``variant``, as :func:`kradan.svg.board` draws
    it; ``lastmove`` is ``from,to``, ``check`` a king's square."""
    try:
        board = find_game(variant).new_board(fen)
        picture = svg.board(
            board,
            size=None,
            flipped=flipped,
            labels=labels,
            lastmove=_square_pair(lastmove) or False,
            check=check or False,
        )
    except (KradanError, ValueError) as error:
        raise HTTPException(status_code=400, detail=str(error)) from None
    return Response(
        picture,
        media_type="image/svg+xml",
        headers={"Content-Disposition": f'attachment; filename="{variant}.svg"'},
    )


@router.get("/assets/{name}")
async def image(name: str) -> Response:
    """One of kradan's piece or board images (see :func:`kradan.web.assets.images`)."""
    try:
        text = assets.image(name)
    except KeyError:
        raise HTTPException(status_code=404, detail=f"no image {name!r}") from None
    return Response(text, media_type="image/svg+xml", headers={"Cache-Control": CACHE})


@router.get("/static/{name:path}")
async def static_file(name: str) -> Response:
    """A file of ``static/``: the board bundle, the client's modules, the style sheets."""
    data = static_files().get(name)
    suffix = name[name.rfind(".") :] if "." in name else ""
    if data is None or suffix not in MEDIA_TYPES:
        raise HTTPException(status_code=404, detail=f"no file {name!r}")
    return Response(data, media_type=MEDIA_TYPES[suffix], headers={"Cache-Control": "no-cache"})


__all__ = ["describe", "router"]

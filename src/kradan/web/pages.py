"""The pages of ``kradan serve``: what the browser shows, around the JSON API of the app.

* ``GET /``: the new-game page (every registered game, its rule options with their defaults,
  the opponent: the engine at a level 1-20, a human on this screen or by invitation; colour and
  clock), and the latest games;
* ``GET /games/{id}``: the board page; ``static/app.js`` fills it from the API and the game's
  websocket;
* ``GET /assets/pieces.css`` and ``/assets/<image>.svg``: kradan's own drawings for chessgroundx
  (:mod:`kradan.web.assets`); ``GET /assets/position.svg?variant=...&fen=...``: the picture of
  a position, drawn by :func:`kradan.svg.board`;
* ``GET /static/<file>``: the files of ``static/`` (the chessgroundx bundle, ``app.js``, the
  style sheets).

The pages hold no inline script or style, so they run under ``Content-Security-Policy:
default-src 'self'``. The router reads no game from storage: the page of a game is the same for
every game, and the browser asks the API for the rest.
"""

from __future__ import annotations

import json
import re
from enum import Enum
from functools import cache
from html import escape
from importlib import resources
from string import Template
from typing import Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import HTMLResponse, Response

from .. import svg
from ..alquerque.variant import AlquerqueVariant
from ..errors import KradanError
from ..games import Game, find_game, game_names
from ..pieces import FERZ, PIECE_SYMBOLS
from ..rulesets import Option
from ..variants import GateRule, SetupRule, Variant
from . import assets

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
}
#: a game's public id (12 url-safe characters; a little slack for other stores)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
CACHE = "public, max-age=3600"


def _package_files(folder: str) -> dict[str, bytes]:
    root = resources.files("kradan.web").joinpath(folder)
    return {entry.name: entry.read_bytes() for entry in root.iterdir() if entry.is_file()}


@cache
def static_files() -> dict[str, bytes]:
    """The files of ``kradan/web/static`` by name."""
    return _package_files("static")


@cache
def template(name: str) -> Template:
    """A page template of ``kradan/web/templates``."""
    text = resources.files("kradan.web").joinpath("templates", name).read_text(encoding="utf-8")
    return Template(text)


# --- what the client needs to know of each game --------------------------------------------------


def describe(game: Game) -> dict[str, Any] | None:
    """What the board needs to know of ``game``: its family (``chess`` or ``alquerque``), its
    board picture, its size, chessgroundx's premove rules, the pocket and the promoted piece;
    ``None`` for a game the browser board cannot draw yet (one registered from outside)."""
    rules = game.rules
    if isinstance(rules, AlquerqueVariant):
        return {
            "title": game.title,
            "family": "alquerque",
            "board": "alquerque",
            "width": 5,
            "height": 5,
            "premove": None,
            "pocket": None,
            "promoted": None,
            "kings": [],
        }
    if not isinstance(rules, Variant):
        return None
    sittuyin = FERZ in rules.piece_types
    if sittuyin:
        premove = "sittuyin"
    elif rules.gates is GateRule.KING_AND_MET_LEAPS:
        premove = "cambodian"
    else:
        premove = "makruk"
    pocket = None
    if rules.setup is SetupRule.DROPS:
        order = ["r", "n", "s", "f", "m", "k"]
        letters = {PIECE_SYMBOLS[t] for t in rules.piece_types} - {"p"}
        pocket = [letter for letter in order if letter in letters]
    return {
        "title": game.title,
        "family": "chess",
        "board": "sittuyin" if sittuyin else "plain",
        "width": 8,
        "height": 8,
        "premove": premove,
        "pocket": pocket,
        "promoted": PIECE_SYMBOLS[rules.promoted_type],
        "kings": ["k"],
    }


def drawable_games() -> list[Game]:
    """The registered games the browser board can draw, in the registry's order."""
    return [game for game in map(find_game, game_names()) if describe(game) is not None]


def descriptions_json() -> str:
    """:func:`describe` of every game the board can draw, as JSON."""
    return json.dumps({game.name: describe(game) for game in drawable_games()})


# --- the new-game page ------------------------------------------------------------------------


def _label(name: str) -> str:
    return name.replace("_", " ")


def _value_text(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def option_control(game: Game, name: str, option: Option, default: object) -> str:
    """The form control of one rule option, with its default marked as ``data-default``."""
    field = f"{game.name}.{name}"
    ident = escape("opt-" + re.sub(r"[^A-Za-z0-9_-]", "-", field))
    common = (
        f'name="{escape(field)}" data-option="{escape(name)}" '
        f'data-default="{escape(_value_text(default))}"'
    )
    label = escape(_label(name))
    if option.kind is bool:
        checked = " checked" if default else ""
        return (
            f'<label class="option option-bool" for="{ident}">'
            f'<input type="checkbox" id="{ident}" data-kind="bool" {common}{checked}> '
            f"{label}</label>"
        )
    if option.kind is int:
        return (
            f'<label class="option option-int" for="{ident}"><span>{label}</span> '
            f'<input type="number" id="{ident}" min="0" step="1" data-kind="int" {common} '
            f'value="{escape(_value_text(default))}"></label>'
        )
    if isinstance(option.kind, type) and issubclass(option.kind, Enum):
        choices = []
        for member in option.kind:
            selected = " selected" if member == default else ""
            value = escape(str(member.value))
            choices.append(f'<option value="{value}"{selected}>{escape(_label(value))}</option>')
        return (
            f'<label class="option option-enum" for="{ident}"><span>{label}</span> '
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
    return (
        f'<fieldset class="option option-tuple" data-kind="tuple" {common}>'
        f"<legend>{label} ({escape(option.choice_name)})</legend>{''.join(boxes)}</fieldset>"
    )


def rule_options(game: Game) -> str:
    """The fieldset of ``game``'s rule options (those that apply to it)."""
    defaults = game.option_defaults()
    controls = [
        option_control(game, name, option, defaults[name])
        for name, option in game.options.items()
        if option.applies(game.rules)
    ]
    return (
        f'<fieldset class="rules" data-variant="{escape(game.name)}" hidden>'
        f"<legend>{escape(game.title)}</legend>{''.join(controls)}</fieldset>"
    )


def new_game_html() -> str:
    """The new-game page, with Makruk chosen (made anew: a game may be registered later)."""
    games = drawable_games()
    choices = "".join(
        f'<option value="{escape(game.name)}"{" selected" * (game.name == DEFAULT_GAME)}>'
        f"{escape(game.title)}</option>"
        for game in games
    )
    return template("new.html").substitute(
        games_json=escape(descriptions_json()),
        game_choices=choices,
        rule_options="".join(rule_options(game) for game in games),
    )


@router.get("/", response_class=HTMLResponse)
async def new_game_page() -> HTMLResponse:
    """The new-game page."""
    return HTMLResponse(new_game_html())


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(game_id: str) -> HTMLResponse:
    """The board page of one game (the browser fetches the game itself)."""
    if not GAME_ID.fullmatch(game_id):
        raise HTTPException(status_code=404, detail=f"no game {game_id!r}")
    page = template("game.html").substitute(
        game_id=escape(game_id), games_json=escape(descriptions_json())
    )
    return HTMLResponse(page)


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


@router.get("/static/{name}")
async def static_file(name: str) -> Response:
    """A file of ``static/``: the board bundle, the client, the style sheets."""
    data = static_files().get(name)
    suffix = name[name.rfind(".") :] if "." in name else ""
    if data is None or suffix not in MEDIA_TYPES:
        raise HTTPException(status_code=404, detail=f"no file {name!r}")
    return Response(data, media_type=MEDIA_TYPES[suffix], headers={"Cache-Control": "no-cache"})


__all__ = ["describe", "router"]

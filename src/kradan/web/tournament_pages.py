"""The tournaments' pages (issue 47): ``/tournaments`` (the list, and a form that makes one for a
signed-in member: ``static/js/tournaments-page.js``), ``/tournaments/{id}`` (status, rounds,
standings, crosstable and the PGN, polled every few seconds: ``static/js/tournament-page.js``)
and ``/tournaments/{id}/play``, which seats a signed-in player at their game under way (the
seat cookie, as the lobby sets it) and sends them to its board."""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.exceptions import HTTPException

from . import i18n
from .accounts import signed_in, username_key
from .api import set_seat_cookie
from .pages import DEFAULT_GAME, drawable_games, render, request_language
from .tournaments_api import director_of

router = APIRouter()

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request) -> HTMLResponse:
    """The tournaments, and the form that makes one."""
    language = request_language(request)
    gettext = i18n.translations(language).gettext
    variants = [(game.name, gettext(game.title)) for game in drawable_games()]
    return render("tournaments.html", language, "/tournaments", variants=variants,
                  default_variant=DEFAULT_GAME)  # fmt: skip


def _checked(tournament_id: str, request: Request) -> str:
    if not TOURNAMENT_ID.fullmatch(tournament_id):
        gettext = i18n.translations(request_language(request)).gettext
        detail = gettext("There is no tournament {id}.").format(id=repr(tournament_id[:64]))
        raise HTTPException(status_code=404, detail=detail)
    return tournament_id


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(tournament_id: str, request: Request) -> HTMLResponse:
    """One tournament (the browser fetches it, and again every few seconds)."""
    _checked(tournament_id, request)
    return render("tournament.html", request_language(request),
                  f"/tournaments/{tournament_id}", tournament_id=tournament_id)  # fmt: skip


@router.get("/tournaments/{tournament_id}/play")
async def play(tournament_id: str, request: Request) -> RedirectResponse:
    """The signed-in player's game under way: its seat cookie is set and the board opens; with
    no such game, back to the tournament."""
    director = director_of(request)
    row = await director.get(_checked(tournament_id, request))
    account = await signed_in(request)
    back = RedirectResponse(f"/tournaments/{row.public_id}", status_code=303)
    if account is None:
        return back
    key = username_key(account.username)
    for pairing in reversed(await director.store.games(row.id)):
        if pairing.game is None or pairing.result is not None:
            continue
        for name, token in ((pairing.white, pairing.white_token),
                            (pairing.black, pairing.black_token)):  # fmt: skip
            if name is not None and token and username_key(name) == key:
                answer = RedirectResponse(f"/games/{pairing.game}", status_code=303)
                set_seat_cookie(answer, pairing.game, token)
                return answer
    return back


__all__ = ["router"]

"""The pages of ``kradan serve``: the new-game page, the board page, and their static files."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
async def new_game_page() -> HTMLResponse:
    """The new-game page."""
    return HTMLResponse("<!doctype html><title>kradan</title><h1>kradan</h1>")


__all__ = ["router"]

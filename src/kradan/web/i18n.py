"""The languages of ``kradan serve``: gettext catalogs read with Babel, the language of a request,
and the catalog the browser gets.

English is the source language: every string the pages show is written in English in the code
and the templates, and is translated through gettext. The translations are the ``.po`` files
``locale/<language>/LC_MESSAGES/messages.po``; ``locale/messages.pot`` is what Babel extracts
(``pybabel extract``, configured in ``pyproject.toml``; see ``docs/translating.md``).

The ``.po`` files are compiled when the server first needs them (:func:`translations`), so there
are no ``.mo`` files to keep up to date; fuzzy and untranslated entries are left out and show in
English.

* the server side: :func:`translations` is a :class:`gettext.GNUTranslations` for Jinja's
  ``i18n`` extension and for :mod:`kradan.web.pages`;
* the browser side: :func:`client_catalog` is the same catalog as JSON (``static/js/words.js``
  reads it from a ``<script type="application/json">`` block of the page), the plural forms keyed
  by the CLDR plural categories that ``Intl.PluralRules`` gives in the browser;
* the request's language (:func:`choose`): the ``kradan_lang`` cookie that the language picker
  sets, else the best ``Accept-Language`` match, else English.

>>> choose("th-TH,th;q=0.9,en;q=0.8", None)
'th'
>>> choose("th", "en")
'en'
>>> choose("fr, de;q=0.5", None)
'en'
"""

from __future__ import annotations

import gettext
import io
import json
from functools import cache
from importlib import resources

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from starlette.requests import HTTPConnection

#: the language the strings are written in
SOURCE_LANGUAGE = "en"
#: the cookie that remembers the language picked in the page header
COOKIE = "kradan_lang"
#: the gettext domain: ``locale/<language>/LC_MESSAGES/messages.po``
DOMAIN = "messages"


def N_(text: str) -> str:
    """Mark ``text`` for extraction without translating it (it is translated where shown)."""
    return text


class Term(str):
    """A word that fills a placeholder of a message and is translated with it (a side's name,
    a game's title), where plain ``str`` values (quoted input, numbers) stay as they are."""

    __slots__ = ()


class Message:
    """A message shown later, in the reader's language: ``template`` is the English text
    (marked with :func:`N_` for extraction) with ``{name}`` placeholders that ``params``
    fill. A :class:`Term` value is translated with it, a :class:`Message` value (a reason
    inside a reason) is shown in the same language, anything else (quoted input, numbers) is
    shown as it is. Without ``params`` the template is the text, braces and all.

    >>> refused = Message(N_("{color} has no move to take back"), color=Term("white"))
    >>> str(refused)
    'white has no move to take back'
    >>> refused.text("th")
    'ฝ่ายขาวไม่มีตาเดินให้ขอคืน'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format_map(self.params) if self.params else self.template

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"

    def text(self, language: str) -> str:
        """The message in ``language`` (English for English and for languages not offered)."""
        if language == SOURCE_LANGUAGE:
            return str(self)
        gettext = translations(language).gettext
        text = gettext(self.template)
        if not self.params:
            return text
        values = {
            name: gettext(value)
            if isinstance(value, Term)
            else value.text(language)
            if isinstance(value, Message)
            else value
            for name, value in self.params.items()
        }
        return text.format_map(values)


def _locale_folder() -> resources.abc.Traversable:
    return resources.files("kradan.web").joinpath("locale")


def _po_file(language: str) -> resources.abc.Traversable:
    return _locale_folder().joinpath(language, "LC_MESSAGES", f"{DOMAIN}.po")


@cache
def languages() -> tuple[str, ...]:
    """The languages the pages can be shown in: English, then every language with a catalog."""
    found = [
        entry.name
        for entry in _locale_folder().iterdir()
        if entry.is_dir() and _po_file(entry.name).is_file()
    ]
    return (SOURCE_LANGUAGE, *sorted(name for name in found if name != SOURCE_LANGUAGE))


def language_name(language: str) -> str:
    """The name of ``language`` in that language: ``English``, ``ไทย``."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


@cache
def catalog(language: str) -> Catalog | None:
    """The Babel catalog of ``language`` (``None`` for English, which needs none)."""
    if language == SOURCE_LANGUAGE or language not in languages():
        return None
    with _po_file(language).open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The gettext translations of ``language``, compiled from its ``.po`` file (fuzzy and
    untranslated entries left out); English and unknown languages get the identity."""
    found = catalog(language)
    if found is None:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, found, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _plural_categories(found: Catalog, language: str) -> dict[str, int]:
    """Which plural form of ``found`` each CLDR category of ``language`` uses (what the browser's
    ``Intl.PluralRules`` answers), found by trying the counts 0-999 with both rules.

    :raises ValueError: when the catalog's ``Plural-Forms`` and CLDR disagree.
    """
    form_of = gettext.c2py(found.plural_expr)
    cldr = Locale.parse(language).plural_form
    forms: dict[str, int] = {}
    for n in range(1000):
        category, form = cldr(n), form_of(n)
        if forms.setdefault(category, form) != form:
            raise ValueError(
                f"{language}: the plural forms {found.plural_expr!r} do not follow CLDR's "
                f"categories ({category!r} is form {forms[category]} and {form})"
            )
    return forms


@cache
def client_catalog(language: str) -> str:
    """The catalog of ``language`` for ``static/js/words.js``, as JSON that is safe inside a
    ``<script type="application/json">`` block: ``{"language": ..., "plural": {category: form},
    "messages": {msgid: translation or [plural forms]}}``."""
    messages: dict[str, str | list[str]] = {}
    plural: dict[str, int] = {"one": 0, "other": 1}
    found = catalog(language)
    if found is not None:
        plural = _plural_categories(found, language)
        for message in found:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple) and isinstance(message.string, tuple):
                strings = list(message.string)
                if all(strings):
                    messages[message.id[0]] = strings
            elif isinstance(message.id, str) and isinstance(message.string, str) and message.string:
                messages[message.id] = message.string
    text = json.dumps(
        {"language": language, "plural": plural, "messages": messages},
        ensure_ascii=False,
        sort_keys=True,
    )
    # nothing in it can end the script element or start a comment in it
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, best first (``q=0`` left out)."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:30]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, index, tag.strip().lower()))
    return [tag for _, _, tag in sorted(weighted)]


def choose(accept_language: str | None, cookie: str | None) -> str:
    """The language of a request: the picked one (``cookie``) when it is offered, else the
    first offered one in ``Accept-Language`` (``th-TH`` matches ``th``), else English."""
    offered = languages()
    if cookie is not None and cookie in offered:
        return cookie
    for tag in _accepted(accept_language or ""):
        if tag == "*":
            break
        primary = tag.replace("_", "-").split("-")[0]
        if primary in offered:
            return primary
    return SOURCE_LANGUAGE


def connection_language(connection: HTTPConnection) -> str:
    """The language of a request or a websocket: :func:`choose` of its ``Accept-Language`` and
    its ``kradan_lang`` cookie (English when it sends neither)."""
    return choose(connection.headers.get("accept-language"), connection.cookies.get(COOKIE))


__all__ = [
    "COOKIE",
    "N_",
    "SOURCE_LANGUAGE",
    "Message",
    "Term",
    "catalog",
    "choose",
    "client_catalog",
    "connection_language",
    "language_name",
    "languages",
    "translations",
]

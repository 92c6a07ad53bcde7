"""``kradan admin``: ``kradan serve``'s database from the command line: make an account (the
first admin, say), give or take away the admin role, disable or enable an account, and back
the database up or restore it
(:mod:`kradan.web.backup`). Needs ``pip install 'kradan[web]'``.

The password is read from the file ``--password-file`` names (its first line), else from the
``KRADAN_PASSWORD`` environment variable, else asked twice at the terminal: never from the
command line, where other users of the machine could read it."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from .common import DATABASE_MODULES, EXIT_BAD_INPUT, add_database_argument, missing_web_extra

EXAMPLES = """examples:
  kradan admin create-user somchai --admin --db club.db --password-file password.txt
  kradan admin set-admin somchai --revoke --db club.db
  kradan admin disable-user somchai --db club.db
  kradan admin enable-user somchai --db club.db
  kradan admin set-admin somchai --db club.db
  kradan admin backup club-backup.db --db club.db
  kradan admin restore club-backup.db --db restored.db"""

NEEDED = (*DATABASE_MODULES, "argon2")


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "admin",
        help="kradan serve's accounts and database: create one, make an admin, back up",
        description="Manage kradan serve's database: create an account (the first admin, "
        "say), give or take away the admin role, back the database up and restore it. A new "
        "account's password comes from --password-file, else KRADAN_PASSWORD, else it is asked "
        "at the terminal.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    create = actions.add_parser("create-user", help="create an account")
    create.add_argument("username", help="3 to 24 letters, digits, _ or -")
    create.add_argument("--admin", action="store_true", help="with the admin role")
    create.add_argument(
        "--password-file", metavar="FILE", help="read the password from FILE's first line"
    )
    role = actions.add_parser("set-admin", help="give an account the admin role")
    role.add_argument("username")
    role.add_argument("--revoke", action="store_true", help="take the admin role away")
    off = actions.add_parser(
        "disable-user", help="disable an account: it cannot sign in, its sessions and tokens stop"
    )
    off.add_argument("username")
    on = actions.add_parser("enable-user", help="enable a disabled account again")
    on.add_argument("username")
    save = actions.add_parser("backup", help="copy the database to a file (while it serves)")
    save.add_argument("file", help="the new file (SQLite: a database; PostgreSQL: pg_dump's)")
    back = actions.add_parser("restore", help="restore a backup into a database")
    back.add_argument("file", help="a file kradan admin backup made")
    back.add_argument(
        "--replace", action="store_true", help="into a database that holds tables already"
    )
    for each in (create, role, off, on, save, back):
        add_database_argument(each)
    parser.set_defaults(run=run)


def read_password(args: argparse.Namespace) -> str:
    """The new account's password: from ``--password-file``, ``KRADAN_PASSWORD`` or asked."""
    if args.password_file:
        lines = Path(args.password_file).read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else ""
    if os.environ.get("KRADAN_PASSWORD"):
        return os.environ["KRADAN_PASSWORD"]
    if not sys.stdin.isatty():
        raise ValueError("no password: give --password-file FILE or set KRADAN_PASSWORD")
    try:
        first = getpass.getpass("password: ")
        again = getpass.getpass("password again: ")
    except EOFError:
        raise ValueError("no password was typed") from None
    if again != first:
        raise ValueError("the two passwords differ")
    return first


async def _act(url: str, args: argparse.Namespace, password: str | None) -> str:
    from ..web import storage
    from ..web.accounts import Accounts

    engine = storage.make_engine(url)
    try:
        await storage.migrate(engine)
        accounts = Accounts(engine)
        if args.admin_command == "create-user":
            assert password is not None
            made = await accounts.sign_up(args.username, password, admin=args.admin)
            return f"created {made.username}" + (" (admin)" if made.admin else "")
        if args.admin_command in ("disable-user", "enable-user"):
            return await _disable(engine, args.username, args.admin_command == "disable-user")
        changed = await accounts.set_admin(args.username, not args.revoke)
        return f"{changed.username} is {'an admin' if changed.admin else 'no longer an admin'}"
    finally:
        await engine.dispose()


async def _disable(engine: Any, username: str, disabled: bool) -> str:
    """Disable or enable ``username`` (written to the audit trail as the command line's)."""
    from ..web.admin_users import UserAdmin
    from ..web.audit import COMMAND_LINE, Audit

    changed = await UserAdmin(engine).set_disabled(username, disabled, None)
    action = "disable" if disabled else "enable"
    await Audit(engine).record(None, COMMAND_LINE, action, changed.username)
    return f"{changed.username} is {'disabled' if disabled else 'enabled'}"


def run(args: argparse.Namespace) -> int:
    if missing_web_extra("admin", NEEDED):
        return EXIT_BAD_INPUT
    from sqlalchemy.exc import SQLAlchemyError

    from ..web.backup import BackupError, backup, restore
    from ..web.model import GameError
    from ..web.storage import database_url, default_database_url

    try:
        url = database_url(args.db) if args.db is not None else default_database_url()
        if args.admin_command == "backup":
            print(backup(url, Path(args.file)))
            return 0
        if args.admin_command == "restore":
            print(restore(Path(args.file), url, replace=args.replace))
            return 0
        password = read_password(args) if args.admin_command == "create-user" else None
        print(asyncio.run(_act(url, args, password)))
    except (ValueError, OSError, BackupError) as error:
        print(f"kradan: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except GameError as error:
        print(f"kradan: error: {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SQLAlchemyError as error:  # a database that refuses the connection or the password
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        print(f"kradan: error: the database refused: {reason}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


__all__ = ["add_parser", "run"]

"""``audiocrib backup`` and ``audiocrib restore``: the server's store copied out while the server runs, and a copy
put back while it is stopped (`audiocrib.server.backup`; docs/server.md, "Hosting a public room")."""

from __future__ import annotations

import argparse
from pathlib import Path

from audiocrib.cli.usage import Parser, UsageError, bad, check_data_dir

__all__ = ["add_backup_commands", "back_up", "restore"]


def add_backup_commands(commands: argparse._SubParsersAction[Parser]) -> None:
    """Add ``backup`` and ``restore`` to the command line's commands."""
    backup = commands.add_parser("backup", help="copy a server's store while it runs: audiocrib backup --data-dir"
                                 " DIR FILE")
    backup.add_argument("--data-dir", dest="server_dir", metavar="DIR", required=True,
                        help="the server's data folder (as given to audiocrib serve)")
    backup.add_argument("file", metavar="FILE", help="the backup to write: a new file, or an earlier backup")
    restore = commands.add_parser("restore", help="put a backup back, the server stopped: audiocrib restore"
                                  " --data-dir DIR FILE")
    restore.add_argument("--data-dir", dest="server_dir", metavar="DIR", required=True,
                         help="the server's data folder (made if missing)")
    restore.add_argument("file", metavar="FILE", help="the backup made by audiocrib backup")


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    check_data_dir(args.server_dir)
    if args.file == "" or "\0" in args.file:
        raise bad("FILE", args.file)
    return Path(args.server_dir).absolute(), Path(args.file).absolute()


def back_up(args: argparse.Namespace) -> int:
    """``audiocrib backup --data-dir DIR FILE``."""
    folder, target = _paths(args)
    from audiocrib.server.backup import BackupError
    from audiocrib.server.backup import back_up as copy_out

    try:
        contents = copy_out(folder, target)
    except BackupError as error:
        raise UsageError(str(error)) from None
    print(f"Backed up {contents} to {target}.")
    return 0


def restore(args: argparse.Namespace) -> int:
    """``audiocrib restore --data-dir DIR FILE``."""
    folder, backup = _paths(args)
    from audiocrib.server.backup import BackupError
    from audiocrib.server.backup import restore as put_back

    try:
        contents, aside = put_back(folder, backup)
    except BackupError as error:
        raise UsageError(str(error)) from None
    print(f"Restored {contents} from {backup} into {folder}.")
    if aside is not None:
        print(f"What was there is kept as {aside.name}.")
    print("Start the server.")
    return 0

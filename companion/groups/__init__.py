"""Groups: a family or a club whose tables record every finished game (services only:
pure SQL over the storage layer, no Flask). :mod:`.group` owns the group, its players and
phones; :mod:`.records` the recorded games; :mod:`.admin` merging, deleting; :mod:`.transfer`
the CSV import."""
from __future__ import annotations

from .group import (Group, GroupPhone, Player, add_players, audit_log, create_group,
                    get_group, groups_of, join_by_token, note_table, parse_players, phone_of,
                    phones, players, remove_phone, rename_player, require_phone)
from .admin import (delete_game, delete_group, game_row, group_size, merge_players,
                    merge_preview)
from .transfer import import_games, read_csv
from .keep import attach_table, attachable, keep_table, keepable
from .records import (CSV_COLUMNS, game_record, games, games_csv, kept_figures, kept_stats,
                      player_games,
                      record_past_games, record_sheet, record_table)

__all__ = ["Group", "GroupPhone", "Player", "add_players", "audit_log", "create_group",
           "get_group", "groups_of", "join_by_token", "note_table", "parse_players", "phone_of",
           "phones", "players", "remove_phone", "rename_player", "require_phone", "CSV_COLUMNS",
           "game_record", "games", "games_csv", "player_games", "kept_stats", "kept_figures",
           "record_past_games", "record_sheet", "record_table", "keep_table", "keepable",
           "attach_table", "attachable", "delete_game", "delete_group", "game_row",
           "group_size", "merge_players", "merge_preview", "import_games", "read_csv"]

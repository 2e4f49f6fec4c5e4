-- The archive of finished games (docs/archive.md). One row per game, written once by the archive writer
-- (service/archive/writer.py) with its seats and its whole event log, in one transaction.

CREATE TABLE games (
    game_id        text PRIMARY KEY,                 -- the live game's id (Redis game:{id})
    game_type      text NOT NULL,                    -- the registry's name ("hinode", "naishi", ...)
    options        jsonb NOT NULL,                   -- the resolved options the game was created with
    visibility     text NOT NULL,                    -- "public" or "private" (who may see its replay)
    rated          boolean NOT NULL DEFAULT false,   -- counts for the ratings (issue 27 item 4)
    outcome        text NOT NULL,                    -- "finished" (by the rules, a resignation or a forfeit)
    resigned       smallint[] NOT NULL DEFAULT '{}', -- the seats that resigned, in order
    decided_by     text NOT NULL DEFAULT '',         -- a rule that decided the ranking regardless of totals
    ranking        jsonb NOT NULL,                   -- seats best first; tied seats share a group: [[0], [2, 1]]
    score          jsonb NOT NULL,                   -- the final Score: every seat's total and breakdown
    final_version  integer NOT NULL,                 -- the version of the event that ended the game
    created_at     timestamptz NOT NULL,
    started_at     timestamptz,
    ended_at       timestamptz NOT NULL,
    archived_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_type_ended ON games (game_type, ended_at DESC, game_id);
CREATE INDEX games_public_ended ON games (ended_at DESC, game_id) WHERE visibility = 'public';

CREATE TABLE game_seats (
    game_id      text NOT NULL REFERENCES games ON DELETE CASCADE,
    seat         smallint NOT NULL,
    kind         text NOT NULL,      -- "human" or "ai" as created (an open seat is filled by the AI at the start)
    name         text NOT NULL,
    player_id    text,               -- the signed-in player who held it (issue 27 item 1); NULL: anonymous or AI
    ai_strength  text,               -- an AI seat's strength preset (its player on the ratings ladder)
    final_state  text NOT NULL DEFAULT '',  -- "", "away", "left" or "resigned" at the end
    total        integer NOT NULL,   -- the final score
    place        smallint NOT NULL,  -- 1 = first; tied seats share a place
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_player ON game_seats (player_id, game_id) WHERE player_id IS NOT NULL;

CREATE TABLE game_logs (
    game_id  text PRIMARY KEY REFERENCES games ON DELETE CASCADE,
    -- Every event, oldest first, hidden ones included (a replay reveals them once the game is over), exactly as
    -- the live game's log held them: format 1 is zlib of the JSON list [[version, {field: value}], ...]
    -- (service/store.py pack_log / unpack_log). Not jsonb: event text may hold U+0000, which jsonb refuses, and the
    -- compressed bytes are copied from Redis without decoding (a few KB a game; a replay reads it whole).
    format   smallint NOT NULL,
    events   bytea NOT NULL
);

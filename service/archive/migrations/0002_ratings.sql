-- Ratings (docs/ratings.md): one openskill rating per player and game type, updated once by each rated game the
-- archive writer inserts (service/archive/ratings.py), in the transaction that inserts it.

CREATE TABLE ratings (
    player_key  text NOT NULL,              -- a player id, or "ai:<strength>" for an AI strength
    game_type   text NOT NULL,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    ordinal     double precision GENERATED ALWAYS AS (mu - 3 * sigma) STORED,  -- the displayed rating
    games       integer NOT NULL DEFAULT 0,  -- rated games counted
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_key, game_type)
);
CREATE INDEX ratings_board ON ratings (game_type, ordinal DESC, player_key);

-- What each rated game changed: one row per rated seat (a seat with no player on the ladder has none).
CREATE TABLE rating_changes (
    game_id       text NOT NULL REFERENCES games ON DELETE CASCADE,
    seat          smallint NOT NULL,
    player_key    text NOT NULL,
    game_type     text NOT NULL,
    place         smallint NOT NULL,
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_player ON rating_changes (player_key, game_id);

-- Arena record files whose games seeded the AI strengths' ratings (`tabletop seed-ratings`, docs/ratings.md): a
-- file (by its content's SHA-256) seeds once.
CREATE TABLE rating_seeds (
    source       text PRIMARY KEY,           -- sha256 of the file's bytes
    name         text NOT NULL,              -- the file's name, for people
    games        integer NOT NULL,           -- its games that rated two AI strengths or more
    imported_at  timestamptz NOT NULL DEFAULT now()
);

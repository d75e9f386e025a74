/// What a PostgreSQL command or URL fails with in a `fetchkit` built without the package trait `Postgres` (so
/// without libpq): the tool then opens SQLite only, and says how to get PostgreSQL back.
struct PostgresNotBuiltIn: Error, CustomStringConvertible {
    /// What needed PostgreSQL: `fetchkit slots`, `a postgres:// URL`.
    let needed: String

    var description: String {
        "\(needed) needs PostgreSQL, and this fetchkit was built without it (the package trait Postgres was off). "
            + "Install libpq (Debian: apt-get install libpq-dev; macOS: brew install libpq), then build fetchkit "
            + "with the default traits, or add Postgres to --traits."
    }
}

#if !Postgres
    import FetchKit

    /// The backend registered for `postgres://` and `postgresql://` URLs in a `fetchkit` built without the package
    /// trait `Postgres`: opening or describing fails with ``PostgresNotBuiltIn``, not with "no store backend for
    /// URLs of scheme 'postgres:'".
    enum PostgresUnavailable: StoreBackend {
        static var urlSchemes: [String] { ["postgres", "postgresql"] }

        static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
            throw PostgresNotBuiltIn(needed: "a postgres:// store")
        }

        static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity {
            throw PostgresNotBuiltIn(needed: "a postgres:// store")
        }

        static func plan(_ schema: Schema, configuration: StoreConfiguration) async throws -> SchemaPlan {
            throw PostgresNotBuiltIn(needed: "a postgres:// store")
        }

        static func diagnose(_ configuration: StoreConfiguration) async -> [DiagnosticCheck] {
            [
                DiagnosticCheck(
                    "backend", .failure, PostgresNotBuiltIn(needed: "a postgres:// store").description,
                    fix: "build fetchkit with its Postgres trait (the default)")
            ]
        }
    }
#endif

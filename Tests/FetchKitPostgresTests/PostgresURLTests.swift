import FetchKit
import FetchKitPostgres
import FetchKitTesting
import Testing

/// URLs become libpq keyword/value pairs, decoded, with the password kept out of every message.
@Suite("PostgresURL")
struct PostgresURLTests {
    static func pairs(_ url: PostgresURL) -> [String] { url.parameters.map { "\($0.keyword)=\($0.value)" } }

    @Test(arguments: [
        ("postgres://app:s3cret@db.internal:5433/tasks?sslmode=require",
         ["user=app", "password=s3cret", "host=db.internal", "port=5433", "dbname=tasks", "sslmode=require"]),
        ("postgresql://localhost/app", ["host=localhost", "dbname=app"]),
        ("postgresql://", []),
        ("postgresql://u%40corp:p%3Aw%2Fd@[::1]:6000/db%20name",
         ["user=u@corp", "password=p:w/d", "host=::1", "port=6000", "dbname=db name"]),
        ("postgresql://postgres@%2Ftmp%2Fpg%2Fsock:5999/fk", ["user=postgres", "host=/tmp/pg/sock", "port=5999", "dbname=fk"]),
        ("postgres:///fk?host=/var/run/postgresql&connect_timeout=3&application_name=my%20app",
         ["dbname=fk", "host=/var/run/postgresql", "connect_timeout=3", "application_name=my app"]),
        ("POSTGRESQL://h:1/d", ["host=h", "port=1", "dbname=d"]),
    ])
    func parsesIntoKeywordValuePairs(url: String, expected: [String]) throws {
        #expect(Self.pairs(try PostgresURL(url)) == expected)
    }

    @Test func redactsThePassword() throws {
        let url = try PostgresURL("postgresql://app:very%20secret@db:5432/tasks?sslmode=verify-full")
        #expect(url.redacted == "postgresql://app:***@db:5432/tasks?sslmode=verify-full")
        #expect("\(url)" == url.redacted)
        #expect(url["password"] == "very secret")
        #expect(url["sslmode"] == "verify-full")
    }

    @Test(arguments: [
        ("mysql://root:hunter2@db/x", "scheme 'mysql'"),
        ("postgresql//db", "expected postgres://"),
        ("postgresql://user:hunter2@db:99999/x", "port '99999'"),
        ("postgresql://user:hunter2@db:0/x", "port '0'"),
        ("postgresql://user:hunter2@db:abc/x", "port 'abc'"),
        ("postgresql://user:hunter2@[::1/x", "IPv6"),
        ("postgresql://user:hunt%zzr2@db/x", "password has a '%'"),
        ("postgresql://user@db/x?password=hunter2", "password in the user info"),
        ("postgresql://user:hunter2@db/x?=1", "no name"),
        ("postgresql://user:hunter2@db/%ff", "not valid UTF-8"),
    ])
    func malformedURLsSayWhatAndNeverEchoThePassword(url: String, mentions: String) {
        do {
            _ = try PostgresURL(url)
            Issue.record("\(url) parsed")
        } catch let error as FetchKitError {
            guard case .invalidURL = error else {
                Issue.record("\(url): \(error)")
                return
            }
            #expect("\(error)".contains(mentions), "\(error)")
            #expect(!"\(error)".contains("hunter2") && !"\(error)".contains("hunt%zz"), "\(error)")
        } catch {
            Issue.record("\(url): \(error)")
        }
    }

    /// The registry picks PostgreSQL by scheme and applies the configured options; a malformed URL's error
    /// never shows its password.
    @Test func registryOpensPostgresURLs() async throws {
        let registry: StoreRegistry = [PostgresStore.self]
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer("CREATE SCHEMA \(namespace)")
        let reader = try await StoreConfiguration.reader(environment: [
            "FETCHKIT_STORE_URL": try PostgresServer.urlText(searchPath: namespace),
            "FETCHKIT_STORE_READERS": "1", "FETCHKIT_POSTGRES_NOTIFICATION_ROW_LIMIT": "10",
        ])
        let store = try #require(try await registry.open(config: reader, schema: Fixtures.schema) as? PostgresStore)
        #expect(store.options.readerCount == 1 && store.options.notificationRowLimit == 10)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        #expect(try await store.count(FetchRequest(entity: "Task")) == 10)
        await store.close()
        do {
            _ = try await registry.open(StoreConfiguration(url: "postgresql://app:hunter2@[::1/app"), schema: Fixtures.schema)
            Issue.record("a malformed URL opened")
        } catch FetchKitError.invalidURL(let message) {
            #expect(!message.contains("hunter2"), "\(message)")
        }
    }
}

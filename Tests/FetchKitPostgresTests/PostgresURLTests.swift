import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTesting
import Testing

/// URLs become libpq keyword/value pairs, decoded, with the password kept out of every message.
@Suite("PostgresURL")
struct PostgresURLTests {
    static func pairs(_ url: PostgresURL) -> [String] { url.parameters.map { "\($0.keyword)=\($0.value)" } }

    @Test(arguments: [
        (
            "postgres://app:s3cret@db.internal:5433/tasks?sslmode=require",
            ["user=app", "password=s3cret", "host=db.internal", "port=5433", "dbname=tasks", "sslmode=require"]
        ),
        ("postgresql://localhost/app", ["host=localhost", "dbname=app"]),
        ("postgresql://", []),
        (
            "postgresql://u%40corp:p%3Aw%2Fd@[::1]:6000/db%20name",
            ["user=u@corp", "password=p:w/d", "host=::1", "port=6000", "dbname=db name"]
        ),
        (
            "postgresql://postgres@%2Ftmp%2Fpg%2Fsock:5999/fk",
            ["user=postgres", "host=/tmp/pg/sock", "port=5999", "dbname=fk"]
        ),
        (
            "postgres:///fk?host=/var/run/postgresql&connect_timeout=3&application_name=my%20app",
            ["dbname=fk", "host=/var/run/postgresql", "connect_timeout=3", "application_name=my app"]
        ),
        ("POSTGRESQL://h:1/d", ["host=h", "port=1", "dbname=d"])
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
        ("postgresql://user:hunter2@db/%ff", "not valid UTF-8")
    ])
    func malformedURLsSayWhatAndNeverEchoThePassword(url: String, mentions: String) {
        do {
            _ = try PostgresURL(url)
            Issue.record("\(url) parsed")
        } catch let error as FetchKitError {
            guard error.code == .invalidURL else {
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
    @Test(.requiresPostgreSQL) func registryOpensPostgresURLs() async throws {
        let registry: StoreRegistry = [PostgresStore.self]
        let namespace = PostgresServer.uniqueName("fkt")
        try await PostgresServer.administer("CREATE SCHEMA \(namespace)")
        let reader = try await StoreConfiguration.reader(environment: [
            "FETCHKIT_STORE_URL": try PostgresServer.urlText(searchPath: namespace),
            "FETCHKIT_STORE_READERS": "1", "FETCHKIT_POSTGRES_NOTIFICATION_ROW_LIMIT": "10"
        ])
        let store = try #require(try await registry.open(config: reader, schema: Fixtures.schema) as? PostgresStore)
        #expect(store.options.readerCount == 1 && store.options.notificationRowLimit == 10)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        #expect(try await store.count(FetchRequest(entity: "Todo")) == 10)
        await store.close()
        do {
            _ = try await registry.open(
                StoreConfiguration(url: "postgresql://app:hunter2@[::1/app"), schema: Fixtures.schema)
            Issue.record("a malformed URL opened")
        } catch let error as FetchKitError where error.code == .invalidURL {
            let message = error.message
            #expect(!message.contains("hunter2"), "\(message)")
        }
    }

    /// Every byte outside the unreserved set percent-encoded.
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
            {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Random passwords of printable, reserved and non-ASCII characters, in URLs encoded and not, with and
    /// without typos in the scheme: no message, redacted URL or registry error ever holds the password, and an
    /// encoded one always parses back exactly.
    @Test func noMessageEverHoldsAPassword() async throws {
        var random = SeededRandom(seed: 2026)
        let alphabet = Array(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ azAZ09é日🎉"##)
        let schemes = [
            "postgresql://", "postgres://", "postgres//", "postgres:/", "postgresql:", "postgress://", "postgres:"
        ]
        let registry: StoreRegistry = [PostgresStore.self]
        for round in 0..<3_000 {
            let password = String((0..<random.int(8..<17)).map { _ in alphabet[random.int(0..<alphabet.count)] })
            let isEncoded = round % 2 == 0
            let scheme = schemes[round % 7 == 0 ? random.int(2..<schemes.count) : random.int(0..<2)]
            let userInfo = "app:" + (isEncoded ? Self.encoded(password) : password)
            let url = scheme + userInfo + "@db.internal:5432/tasks?sslmode=disable"
            let secrets = [password, Self.encoded(password)]
            func check(_ text: String, _ what: String) {
                for secret in secrets where text.contains(secret) {
                    Issue.record("round \(round): \(what) holds the password: \(text.debugDescription)")
                }
            }
            check(StoreConfiguration(url: url).redactedURL, "the configuration's redacted URL")
            do {
                let parsed = try PostgresURL(url)
                check(parsed.redacted, "the redacted URL")
                check("\(parsed)", "the description")
                if isEncoded && scheme.hasSuffix("://") && scheme.hasPrefix("postgres") && scheme != "postgress://" {
                    #expect(parsed["password"] == password, "round \(round): the password did not round-trip")
                    #expect(parsed["host"] == "db.internal", "round \(round): host \(parsed["host"] ?? "none")")
                }
            } catch {
                check("\(error)", "the parse error")
            }
            if !scheme.hasSuffix("://") || scheme == "postgress://" {
                // Refused before any connection: by the registry (no scheme, no backend) or by the URL parser.
                do {
                    _ = try await registry.describeTable("todo", in: StoreConfiguration(url: url))
                    Issue.record("round \(round): \(scheme) opened")
                } catch {
                    check("\(error)", "the registry's error")
                }
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

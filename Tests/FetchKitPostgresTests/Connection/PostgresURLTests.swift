import FetchKit
import FetchKitFixtures
import FetchKitPostgres
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Logging
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
        ("postgresql://user:hunter2@db:99999/x", "port after the host's ':'"),
        ("postgresql://user:hunter2@db:0/x", "port after the host's ':'"),
        ("postgresql://user:hunter2@db:abc/x", "port after the host's ':'"),
        ("postgresql://user:hunter2/x", "lacks its '@host'"),
        ("postgresql://user:987654321/x", "lacks its '@host'"),
        ("postgresql://user@db/x?PassWord=hunter2", "password in the user info"),
        ("postgresql:user:hunter2@db/x?application_name=a://b", "expected postgres://"),
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
            for secret in ["hunter2", "hunt%zz", "987654321"] {
                #expect(!"\(error)".contains(secret), "\(error)")
            }
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

    /// Random passwords of printable, reserved and non-ASCII characters, in every shape a deployment writes a
    /// secret (or mistypes it): the user info's password, encoded and not, under mistyped schemes; secret query
    /// items (`password`, `sslpassword`, `oauth_client_secret`) in any case, repeated; libpq keyword/value
    /// strings with spaces around `=`, quoted values and escaped quotes; a forgotten `@host`; numeric
    /// passwords; SQLite URLs with user info; a `dbname` that is itself a connection string. No redacted URL,
    /// description, parse error, registry error, "could not connect" error or log line at trace level ever
    /// holds a secret, and an encoded password always parses back exactly.
    @Test func noMessageEverHoldsAPassword() async throws {
        var random = SeededRandom(seed: 2026)
        let registry: StoreRegistry = [PostgresStore.self]
        let log = LogCapture()
        let logger = log.logger
        var logged = 0
        var connections = 0
        for round in 0..<3_000 {
            let shape = SecretShape.make(round: round, random: &random)
            let url = shape.url
            func check(_ text: String, _ what: String) {
                for secret in shape.secrets where text.contains(secret) {
                    Issue.record(
                        "round \(round): \(what) holds a secret: \(text.debugDescription) of \(url.debugDescription)")
                }
            }
            check(StoreConfiguration(url: url).redactedURL, "the configuration's redacted URL")
            check(SecretRedaction.redact(url), "the redacted text")
            do {
                let parsed = try PostgresURL(url)
                check(parsed.redacted, "the redacted URL")
                check("\(parsed)", "the description")
                if let password = shape.exactPassword {
                    #expect(parsed["password"] == password, "round \(round): the password did not round-trip")
                    #expect(parsed["host"] == "db.internal", "round \(round): host \(parsed["host"] ?? "none")")
                }
            } catch {
                check("\(error)", "the parse error")
            }
            if shape.connects {
                // The "could not connect" path (nothing listens on port 1), its log lines captured at trace level.
                guard connections < 400 else { continue }
                connections += 1
                do {
                    _ = try await PostgresStore.open(
                        url: url, schema: Fixtures.schema, options: .init(readerCount: 1, logger: logger))
                    Issue.record("round \(round): a store opened on port 1")
                } catch {
                    check("\(error)", "the connection error")
                }
                let lines = log.lines(since: logged)
                logged += lines.count
                for line in lines {
                    check(line.description, "a log line")
                }
            } else if !(url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) || !url.contains("db.internal")
            {
                // Refused before any connection: by the registry (no scheme, no backend) or by the URL parser.
                do {
                    _ = try await registry.describeTable("todo", in: StoreConfiguration(url: url))
                    Issue.record("round \(round): \(url) opened")
                } catch {
                    check("\(error)", "the registry's error")
                }
            }
        }
        #expect(connections > 100, "too few connection attempts: \(connections)")
    }
}

/// A URL or connection string holding secrets, in one of the shapes a deployment writes (or mistypes) one.
struct SecretShape {
    let url: String
    /// Every secret it holds, as written and percent-encoded: none may be shown.
    let secrets: [String]
    /// Whether it names a server on 127.0.0.1, port 1: opening it fails to connect (or, for a `password` query
    /// item, to parse). Otherwise the registry refuses it before connecting, unless it names `db.internal`.
    let connects: Bool
    /// The password it encodes exactly, for the parse round trip.
    var exactPassword: String?

    static let alphabet = Array(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ azAZ09é日🎉"##)
    static let schemes = [
        "postgresql://", "postgres://", "postgres//", "postgres:/", "postgresql:", "postgress://", "postgres:"
    ]
    static let server = "127.0.0.1:1"

    static func make(round: Int, random: inout SeededRandom) -> SecretShape {
        func secret(_ characters: [Character] = alphabet, length: Range<Int> = 8..<17) -> String {
            String((0..<random.int(length)).map { _ in characters[random.int(0..<characters.count)] })
        }
        func anyCase(_ keyword: String) -> String {
            String(keyword.map { random.int(0..<2) == 0 ? Character($0.uppercased()) : $0 })
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let keywords = ["password", "sslpassword", "oauth_client_secret"]
        switch round % 8 {
        case 0:
            // The user info's password, encoded or not, under a correct or mistyped scheme.
            let password = secret()
            let isEncoded = round % 16 == 0
            let scheme = schemes[round % 7 == 0 ? random.int(2..<schemes.count) : random.int(0..<2)]
            let userInfo = "app:" + (isEncoded ? PostgresURLTests.encoded(password) : password)
            let exact = isEncoded && (scheme == "postgresql://" || scheme == "postgres://")
            return SecretShape(
                url: scheme + userInfo + "@db.internal:5432/tasks?sslmode=disable",
                secrets: [password, PostgresURLTests.encoded(password)], connects: false,
                exactPassword: exact ? password : nil)
        case 1, 7:
            // Secret query items in any case, repeated, encoded or not (unencoded without '&' and '%', which a
            // URL's query cannot hold as text).
            let plain = alphabet.filter { $0 != "&" && $0 != "%" }
            var items = ["connect_timeout=2"]
            var secrets: [String] = []
            for _ in 0..<random.int(1...3) {
                let value = random.int(0..<2) == 0 ? secret() : secret(plain)
                let written = secrets.count % 2 == 0 ? PostgresURLTests.encoded(value) : value
                secrets += [value, PostgresURLTests.encoded(value)]
                items.insert(
                    anyCase(keywords[random.int(0..<keywords.count)]) + "=" + written, at: random.int(0...items.count))
            }
            let user = round % 8 == 7 ? "app:" + PostgresURLTests.encoded(secrets[0]) : "app"
            return SecretShape(
                url: "postgresql://\(user)@\(server)/db?" + items.joined(separator: "&"), secrets: secrets,
                connects: true)
        case 2:
            // A libpq keyword/value string: spaces around '=', a quoted value with escaped quotes and backslashes.
            let isQuoted = random.int(0..<2) == 0
            let value = isQuoted ? secret() : secret(letters)
            let escaped = value.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
            let spaces = [" ", "", "  "]
            let pair =
                anyCase(keywords[random.int(0..<keywords.count)]) + spaces[random.int(0..<3)] + "="
                + spaces[random.int(0..<3)] + (isQuoted ? "'\(escaped)'" : value)
            return SecretShape(url: "host=127.0.0.1 port=1 \(pair) dbname=app", secrets: [value], connects: false)
        case 3:
            // A forgotten '@host': the password reads as a port.
            let value = "x" + secret(letters)
            return SecretShape(url: "postgresql://app:\(value)/db", secrets: [value], connects: false)
        case 4:
            // A numeric password, too long to be a port, with and without its '@host'.
            let value = String(random.int(1_000_000...999_999_999_999))
            return round % 16 == 4
                ? SecretShape(url: "postgresql://app:\(value)/db", secrets: [value], connects: false)
                : SecretShape(
                    url: "postgresql://app:\(value)@\(server)/db?connect_timeout=2", secrets: [value], connects: true)
        case 5:
            // SQLite URLs with user info: no backend here, so the registry refuses them; redacted all the same.
            let value = secret(letters)
            let url = round % 16 == 5 ? "sqlite://user:\(value)@var/app.sqlite" : "sqlite:user:\(value)@app.sqlite"
            return SecretShape(url: url, secrets: [value], connects: false)
        default:
            // A dbname that is itself a connection string holding a password.
            let value = secret(letters)
            let nested = PostgresURLTests.encoded("host=127.0.0.1 password=\(value)")
            return SecretShape(
                url: "postgresql://\(server)/?connect_timeout=2&dbname=\(nested)", secrets: [value], connects: true)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}

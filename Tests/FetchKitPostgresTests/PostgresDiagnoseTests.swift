import FetchKit
import FetchKitPostgres
import Testing

/// `PostgresStore.diagnose(url:)`: every check passes for the test server's superuser; a role that may neither
/// replicate nor create in its schema gets a warning for each, with what to do; an unreachable server a failure.
@Suite("PostgreSQL: diagnosis", .requiresPostgreSQL)
struct PostgresDiagnoseTests {
    @Test func superuserRestrictedRoleAndNoServer() async throws {
        let url = try PostgresServer.requiredURLText()
        let checks = await PostgresStore.diagnose(url: url)
        #expect(
            checks.map(\.name) == [
                "connection", "server", "wal_level", "replication role", "replication slots", "WAL senders",
                "trigger capture", "pooler"
            ])
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks)")

        let role = PostgresServer.uniqueName("fkt_doctor")
        try await PostgresServer.administer(
            "CREATE ROLE \(role) LOGIN NOREPLICATION; REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        let restricted = await PostgresStore.diagnose(url: url.replacingFirst("postgres@", with: "\(role)@"))
        let warnings = restricted.filter { $0.status == .warning }
        #expect(warnings.map(\.name) == ["replication role", "trigger capture"], "\(restricted)")
        #expect(warnings.allSatisfy { $0.fix != nil }, "\(warnings)")
        #expect(warnings[0].fix == "ALTER ROLE \(role) REPLICATION (or grant the managed service's replication role)")
        try await PostgresServer.administer("DROP ROLE \(role)")

        let unreachable = await PostgresStore.diagnose(url: "postgres://postgres@127.0.0.1:1/none")
        #expect(unreachable.count == 1 && unreachable[0].status == .failure && unreachable[0].fix != nil)
    }
}

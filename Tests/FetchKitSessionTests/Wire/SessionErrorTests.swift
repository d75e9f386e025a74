import FetchKit
import FetchKitSession
import Testing

/// What a client hears of a failure: a code and a message safe to show.
@Suite("Session errors")
struct SessionErrorTests {
    @Test func aDatabaseErrorNeverReachesTheClientWithItsSQL() {
        let error = FetchKitError(
            .database, message: "syntax error near SELECT secret FROM users", sql: "SELECT secret FROM users")
        let told = SessionError(sanitizing: error)
        #expect(told.code == .internal)
        #expect(!told.message.contains("SELECT") && !told.message.contains("secret"))
    }

    @Test func aLostConnectionIsUnavailableAndAConflictIsAConflict() {
        #expect(SessionError(sanitizing: FetchKitError(.connectionLost, message: "host 10.0.0.3")).code == .unavailable)
        #expect(
            SessionError(sanitizing: FetchKitError(.connectionLost, message: "host 10.0.0.3")).message.contains("10.0")
                == false)
        #expect(SessionError(sanitizing: FetchKitError(.serializationFailure, message: "x")).code == .conflict)
    }

    @Test func anErrorAboutTheClientsOwnInputSaysWhat() throws {
        do {
            _ = try FetchPredicate(format: "title ==")
            Issue.record("parsed")
        } catch {
            let told = SessionError(sanitizing: error)
            #expect(told.code == .invalid)
            #expect(!told.message.isEmpty)
        }
    }

    @Test func anyOtherErrorIsInternal() {
        struct Unexpected: Error {}
        #expect(SessionError(sanitizing: Unexpected()).code == .internal)
    }
}

import Testing
import FetchKitSQLite
@Test func placeholder() { #expect(Bool(true)) }

import FetchKitMacros
import FetchKitSQLite
import Foundation
import Testing

/// Column defaults taken from the properties' defaults.
@Suite("@Entity defaults")
struct EntityDefaultsTests {
    @Test("an enum case or a static constant is the column's default; a value made per record is not")
    func memberDefaults() async throws {
        let entity = Ticket.entity
        #expect(entity.attribute(named: "status")?.defaultValue == .text("open"))
        #expect(entity.attribute(named: "previousStatus")?.defaultValue == .text("waiting"))
        #expect(entity.attribute(named: "opened")?.defaultValue == nil)
        // A row inserted without the column takes the default.
        let store = try await SQLiteStore.inMemory(schema: try Schema([Ticket.entity]))
        let key = try await store.write { tx in try tx.insert(["opened": .date(Date())], into: "Ticket") }
        let ticket = try #require(try await store.fetch(FetchRequest<Ticket>(sortBy: [])).first)
        #expect(key == .integer(try #require(ticket.id)))
        #expect(ticket.status == .open && ticket.previousStatus == .waiting)
        await store.close()
    }
}

extension EntityDefaultsTests {
    @Test("properties declared together share the type written after the last of them")
    func sharedType() {
        #expect(Span.entity.attributes.map(\.name) == ["id", "low", "high"])
        #expect(Span.entity.attributes.map(\.type) == [.integer, .integer, .integer])
        #expect(Span(id: 1, low: 2, high: 3).attributeValues() == [.integer(1), .integer(2), .integer(3)])
    }
}

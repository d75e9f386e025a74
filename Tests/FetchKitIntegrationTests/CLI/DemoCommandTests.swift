import Foundation
import Testing

/// `fetchkit demo <name>` runs each scenario to the end and shows what it is about.
@Suite("fetchkit demo")
struct DemoCommandTests {
    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await FetchKitBinary.run(arguments)
    }

    @Test(arguments: [
        ("todos", "an outside write"),
        ("multi", "still showing 'open'"),
        ("composite", "one batch for transaction"),
        ("reorder", "section delete 'Home' (old 1)"),
        ("batches", "largest window: 3 rows; equal to a fresh fetch after 200 of 200 transactions"),
        ("wire", "the Swift client (WireList) now equals the controller: true")
    ])
    func runs(name: String, expected: String) async throws {
        let (status, output) = try await run(["demo", name])
        #expect(status == 0, "\(output)")
        #expect(output.contains(expected), "\(output)")
        if name == "reorder" {
            // The dragged row is silent; the two rows whose NULL-including order values were renumbered are updated.
            #expect(
                output.contains("row update [0, 0] → [0, 0] 'Buy milk'\n   row update [0, 2] → [0, 2] 'Café order'"))
            #expect(!output.contains("'Fix sink'\n"))
        }
    }
}

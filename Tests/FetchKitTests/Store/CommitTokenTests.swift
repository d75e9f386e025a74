import FetchKit
import Foundation
import Testing

/// A commit token's text form is PostgreSQL's `pg_lsn`, read back exactly, and nothing else reads as one.
@Suite("Commit tokens")
struct CommitTokenTests {
    @Test func theTextFormRoundTripsAndOrders() throws {
        let token = CommitToken(position: 0x16_B374_D848)
        #expect(token.description == "16/B374D848")
        #expect(CommitToken("16/B374D848") == token && CommitToken("16/b374d848") == token)
        #expect(CommitToken("0/0") == CommitToken(position: 0))
        #expect(CommitToken("0/1")! < CommitToken("1/0")!)
        for bad in ["", "16", "16/", "/1", "1/2/3", "x/1", "123456789/0", "-1/0", "1/ 2"] {
            #expect(CommitToken(bad) == nil, "\(bad)")
        }
        let encoded = try JSONEncoder().encode([token])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["16\/B374D848"]"#)
        #expect(try JSONDecoder().decode([CommitToken].self, from: encoded) == [token])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CommitToken].self, from: Data(#"["no"]"#.utf8))
        }
    }
}

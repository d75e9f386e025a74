@_spi(Benchmarks) import FetchKit
import Testing

@Suite("Diff sides")
struct DiffSideTests {
    @Test("sections built from (name, keys) pairs")
    func sections() throws {
        let side = try DiffSide(sections: [
            (name: "a", keys: [1, 2] as [Int64]), (name: "b", keys: []),
            (name: "c", keys: [3])
        ])
        #expect(side.keys == [1, 2, 3])
        #expect(side.sectionStarts == [0, 2, 2])
        #expect(side.sectionCounts == [2, 0, 1])
        #expect(side.sectionRange(2) == 2..<3)
        #expect(side.sections.map(\.keys) == [[1, 2], [], [3]])
        let unsectioned = DiffSide(keys: [] as [Int64])
        #expect(unsectioned.sectionNames == [""])
        #expect(unsectioned.sectionCounts == [0])
    }

    @Test("bad boundaries and repeated names are refused with a message")
    func invalid() {
        let cases: [(names: [String], starts: [Int], message: String)] = [
            (["a"], [0, 1], "1 section names but 2 section starts"),
            (["a"], [1], "the first section starts at 1, not 0"),
            (["a", "b"], [0, 5], "section 1 starts at 5, outside 0...3"),
            (["a", "b", "c"], [0, 2, 1], "section 2 starts at 1, outside 2...3"),
            (["a", "a"], [0, 1], "section 1 repeats the name 'a'"),
            ([], [], "3 rows but no sections")
        ]
        for (names, starts, message) in cases {
            #expect(throws: FetchKitError.invalidValue("diff side: " + message)) {
                try DiffSide(keys: [1, 2, 3] as [Int64], sectionNames: names, sectionStarts: starts)
            }
        }
        #expect(throws: FetchKitError.self) {
            try DiffSide(sections: [(name: "x", keys: [1] as [Int64]), (name: "x", keys: [2])])
        }
    }
}

import FetchKit
import FetchKitFixtures
import Foundation

/// The checks themselves: fetches and counts against the fixtures, whose expected keys were worked out by
/// hand from ``Fixtures/sampleTodos``.
extension StoreConformance {
    func checkPredicate(_ testCase: PredicateCase, on store: any PersistentStore) async throws {
        let predicate = try FetchPredicate(format: testCase.format, argumentArray: testCase.arguments)
        let request = FetchRequest(entity: testCase.entity, predicate: predicate, sortDescriptors: [.ascending("id")])
        if testCase.foldsDiacritics && !capabilities.diacriticInsensitive {
            do {
                _ = try await store.fetch(request)
                throw ConformanceFailure("\(testCase): [d] compiled on a store without diacritic folding")
            } catch let error as FetchKitError where error.code == .unsupported {
                return
            }
        }
        let keys = try await store.fetch(request).map { $0["id", as: Int64.self] ?? -1 }
        try ConformanceFailure.require(
            keys == testCase.expected, "\(testCase): got \(keys), expected \(testCase.expected)")
        let count = try await store.count(request)
        try ConformanceFailure.require(count == testCase.expected.count, "\(testCase): count \(count)")
    }

    func checkVariableSubstitution(on store: any PersistentStore) async throws {
        let template = try FetchPredicate(format: "title == $TITLE OR priority > $P")
        let predicate = try template.substituting(["TITLE": "Fix sink", "P": 3])
        let keys = try await store.fetch(
            FetchRequest(entity: "Todo", predicate: predicate, sortDescriptors: [.ascending("id")])
        )
        .map { $0["id", as: Int64.self] ?? -1 }
        try ConformanceFailure.require(keys == [5, 7], "substitution selected \(keys)")
    }

    func checkValueInjection(on store: any PersistentStore) async throws {
        let hostile = "x'); DROP TABLE todo; --"
        let request = FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "title == %@", hostile))
        try ConformanceFailure.require(try await store.fetch(request).isEmpty, "a hostile value matched a row")
        _ = try await store.write { tx in try tx.insert(Fixtures.TodoRecord(title: hostile)) }
        let stored = try await store.fetch(request.erased, as: Fixtures.TodoRecord.self)
        try ConformanceFailure.require(
            stored.map(\.title) == [hostile], "the hostile title was stored as \(stored.map(\.title))")
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try ConformanceFailure.require(count == 11, "todo count \(count) after the insert")
    }

    func checkKeyInjection(on store: any PersistentStore) async throws {
        do {
            _ = try FetchPredicate(format: "%K == 1", "name; DROP TABLE todo")
            throw ConformanceFailure("a key with SQL in it parsed")
        } catch is FetchKitError {}
        // A syntactically valid but unknown key is rejected by validation, never reaches SQL.
        let unknown = try FetchPredicate(format: "%K == 1", "title_x")
        do {
            _ = try await store.fetch(FetchRequest(entity: "Todo", predicate: unknown))
            throw ConformanceFailure("an unknown key was fetched")
        } catch let error as FetchKitError {
            try ConformanceFailure.require(
                error == .unknownKey("title_x", entity: "Todo", offset: 0), "unknown key error: \(error)")
        }
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try ConformanceFailure.require(count == 10, "todo count \(count)")
    }

    func checkTypeMismatch(on store: any PersistentStore) async throws {
        let predicate = try FetchPredicate(format: "priority == \"abc\"")
        do {
            _ = try await store.fetch(FetchRequest(entity: "Todo", predicate: predicate))
            throw ConformanceFailure("comparing an integer with text compiled")
        } catch let error as FetchKitError {
            try ConformanceFailure.require(
                error == .typeMismatch(key: "priority", expected: .integer, got: "\"abc\"", offset: 0),
                "error: \(error)")
        }
    }

    func checkMatchesUnsupported(on store: any PersistentStore) async throws {
        let predicate = try FetchPredicate(format: "title MATCHES 'W.*'")
        do {
            _ = try await store.fetch(FetchRequest(entity: "Todo", predicate: predicate))
            throw ConformanceFailure("MATCHES compiled")
        } catch let error as FetchKitError {
            try expect(
                error.code == .unsupported && error.construct == "MATCHES" && error.offset == 0,
                "MATCHES refused with \(error.code) \(error.construct ?? "nil") at \(error.offset ?? -1)")
        }
    }

    func checkTextPrimaryKey(on store: any PersistentStore) async throws {
        try await store.write { tx in
            try tx.insert(Fixtures.NoteRecord(slug: "b-note", body: "second", pinned: true))
            try tx.insert(Fixtures.NoteRecord(slug: "a-note", body: "first"))
        }
        let pinned = try await store.fetch(
            FetchRequest(
                Fixtures.NoteRecord.self, predicate: try FetchPredicate(format: "pinned == YES OR slug BEGINSWITH 'a'"),
                sortDescriptors: [.ascending("slug")]))
        try ConformanceFailure.require(pinned.map(\.slug) == ["a-note", "b-note"], "notes \(pinned.map(\.slug))")
    }

    func checkSortOrdersAndLimits(on store: any PersistentStore) async throws {
        func keys(_ request: FetchRequest<Row>) async throws -> [Int64] {
            try await store.fetch(request).map { $0["id", as: Int64.self] ?? -1 }
        }
        func require(_ request: FetchRequest<Row>, _ expected: [Int64], _ what: String) async throws {
            let got = try await keys(request)
            try ConformanceFailure.require(got == expected, "\(what): got \(got), expected \(expected)")
        }
        // NULLs first ascending, last descending; the primary key breaks ties.
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("ordering")]),
            [4, 8, 5, 9, 1, 2, 3, 7, 10, 6], "ascending with NULLs")
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.descending("ordering")]),
            [6, 10, 7, 3, 2, 1, 9, 5, 4, 8], "descending with NULLs")
        // Through a relationship, NULL categories first.
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("category.name"), .descending("priority")]),
            [9, 8, 3, 4, 5, 6, 7, 1, 2, 10], "through a relationship")
        // Code-point order vs case-insensitive order.
        let some = try FetchPredicate(format: "id IN {1, 7, 10, 2}")
        try await require(
            FetchRequest(entity: "Todo", predicate: some, sortDescriptors: [.ascending("title")]),
            [7, 1, 10, 2], "code-point text order")
        try await require(
            FetchRequest(
                entity: "Todo", predicate: some, sortDescriptors: [.ascending("title", caseInsensitive: true)]),
            [10, 2, 1, 7], "case-insensitive text order")
        // Limit and offset.
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.descending("priority")], fetchLimit: 3, fetchOffset: 2),
            [1, 9, 2], "limit and offset")
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")], fetchOffset: 8), [9, 10],
            "offset alone")
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("title")]),
            [8, 9, 4, 3, 5, 6, 7, 1, 10, 2], "two keys through a relationship")
        try await require(
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title", caseInsensitive: true)]),
            [10, 4, 3, 8, 5, 6, 2, 1, 7, 9], "every title case-insensitively")
        try await require(
            FetchRequest(entity: "Todo", fetchLimit: 3, fetchOffset: 2), [3, 4, 5], "a window in key order")
        try await require(FetchRequest(entity: "Todo", fetchLimit: 0), [], "a zero limit")
        let limited = try await store.count(FetchRequest(entity: "Todo", fetchLimit: 4))
        try ConformanceFailure.require(limited == 4, "count with a limit: \(limited)")
        let tail = try await store.count(FetchRequest(entity: "Todo", fetchLimit: 3, fetchOffset: 8))
        try ConformanceFailure.require(tail == 2, "count of a window past the end: \(tail)")
        let done = try await store.count(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "done == YES")))
        try ConformanceFailure.require(done == 4, "count with a predicate: \(done)")
    }

    func checkPropertiesToFetch(on store: any PersistentStore) async throws {
        let request = FetchRequest(
            entity: "Todo", sortDescriptors: [.ascending("category.name")],
            sectionNameKeyPath: "category.name", propertiesToFetch: ["title"])
        let rows = try await store.fetch(request)
        try ConformanceFailure.require(
            rows.first?.names == ["id", "title", "category.name"],
            "columns \(String(describing: rows.first?.names))")
        let sections = rows.map { $0["category.name"] ?? .null }.prefix(3)
        try ConformanceFailure.require(sections == [.null, .null, .text("Errands")], "section keys \(sections)")
    }

    /// Texts whose case folding is easy to get wrong: final sigma, ß, dotted capital I, titlecase digraphs.
    static let foldingTexts = [
        "ΟΔΟΣ", "οδος", "οδοσ", "ΣΑΣ ΣΤΟ", "σας στο", "Σ", "σ", "Straße", "STRASSE", "strasse", "İstanbul",
        "istanbul", "ǅemal", "ǆemal", "Ω", "ω", "ΌΣΟΣ.", "όσος."
    ]

    func checkCaseFolding(on store: any PersistentStore) async throws {
        let texts = Self.foldingTexts
        try await store.write { tx in
            for (index, text) in texts.enumerated() {
                try tx.insert(Fixtures.NoteRecord(slug: "f\(index)", body: text))
            }
        }
        for text in texts {
            let found = try await store.fetch(
                FetchRequest(
                    entity: "Note", predicate: try FetchPredicate(format: "body ==[c] %@", text),
                    sortDescriptors: [.ascending("slug")])
            )
            .compactMap { $0["body", as: String.self] }
            let expected = texts.filter {
                Value.databaseOrder(.text($0), .text(text), caseInsensitive: true) == .orderedSame
            }
            try expect(
                Set(found) == Set(expected), "body ==[c] '\(text)' found \(found), FetchKit folds to \(expected)")
        }
        let sorted = try await store.fetch(
            FetchRequest(entity: "Note", sortDescriptors: [.ascending("body", caseInsensitive: true)])
        )
        .map { $0["body"] ?? .null }
        for (left, right) in zip(sorted, sorted.dropFirst()) {
            try expect(
                Value.databaseOrder(left, right, caseInsensitive: true) != .orderedDescending,
                "the database sorts \(left) before \(right); FetchKit's in-memory order disagrees")
        }
    }
}

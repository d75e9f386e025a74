import FetchKit
import FetchKitTesting
import Foundation
import Synchronization
import Testing

@testable import FetchKitPostgres

/// A table with every PostgreSQL type FetchKit maps, made by DDL: read, written, filtered and sorted as its
/// attribute type, by the database and in memory alike, with live controllers that follow this store's
/// writes and another client's.
@Suite("PostgreSQL column types", .requiresPostgreSQL)
struct PostgresColumnTypesTests {
    static let ddl = """
        CREATE TYPE "Mood" AS ENUM ('sad', 'ok', 'happy');
        CREATE TABLE typed (
            id integer PRIMARY KEY, tiny smallint, whole integer, big bigint,
            amount numeric(12, 4), units numeric(10, 0), ratio numeric, single real, double double precision,
            label varchar(10), code char(6), body text, tag citext, ref uuid, doc json, docb jsonb, mood "Mood",
            day date, at timestamp, stamp timestamptz, flag boolean, bytes bytea);
        """

    static let entity = Entity(
        "Typed", table: "typed", primaryKey: .integer("id"),
        attributes: [
            Attribute("tiny", .integer, optional: true), Attribute("whole", .integer, optional: true),
            Attribute("big", .integer, optional: true), Attribute("amount", .double, optional: true),
            Attribute("units", .integer, optional: true), Attribute("ratio", .double, optional: true),
            Attribute("single", .double, optional: true), Attribute("double", .double, optional: true),
            Attribute("label", .text, optional: true), Attribute("code", .text, optional: true),
            Attribute("body", .text, optional: true), Attribute("tag", .text, optional: true),
            Attribute("ref", .text, optional: true), Attribute("doc", .text, optional: true),
            Attribute("docb", .text, optional: true), Attribute("mood", .text, optional: true),
            Attribute("day", .date, optional: true), Attribute("at", .date, optional: true),
            Attribute("stamp", .date, optional: true), Attribute("flag", .bool, optional: true),
            Attribute("bytes", .binary, optional: true)
        ])

    static let refA = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
    static let refB = "b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12"
    static let instant = NativeTables.date(2024, 1, 31, 12, 34, 56.789)

    static let first: Row = [
        "id": 1, "tiny": -32768, "whole": .integer(Int64(Int32.max)), "big": .integer(.max), "amount": 1.5,
        "units": 42, "ratio": 0.1, "single": 0.1, "double": 0.1, "label": "alpha", "code": "ab", "body": "x",
        "tag": "apple", "ref": .text(refA), "doc": #"{"a": 1}"#, "docb": #"{"b": 2, "a": 1}"#, "mood": "sad",
        "day": .date(NativeTables.date(2024, 1, 31, 15)), "at": .date(instant), "stamp": .date(instant),
        "flag": true, "bytes": .blob(Data([1, 2]))
    ]
    static let second: Row = [
        "id": 2, "tiny": 7, "whole": -5, "big": 0, "amount": -3.25, "units": -7, "ratio": 2.5, "single": 0.001,
        "double": -0.5, "label": "Alpha", "code": "ab c", "body": "y", "tag": "Apple", "ref": .text(refB),
        "doc": "[]", "docb": "[1, 2]", "mood": "happy", "day": .date(NativeTables.date(1999, 12, 31)),
        "at": .date(NativeTables.date(1969, 7, 20, 20, 17)), "stamp": .date(NativeTables.date(1969, 7, 20, 20, 17)),
        "flag": false, "bytes": .blob(Data())
    ]
    /// Written by another client, in PostgreSQL's own spellings.
    static let third = """
        INSERT INTO typed (id, tiny, amount, ratio, label, code, tag, ref, docb, mood, day, at) VALUES
        (4, 3, 99999999.9999, 0.1000000000000000001, 'beta', 'zz    ', 'BANANA',
        'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12',
         '{"z": [1, 2], "a": null}', 'ok', '2024-02-29', '2024-01-31 12:34:56.789')
        """

    /// A store over a new `typed` table holding rows 1 and 2, a row 3 of NULLs, and row 4 from another client.
    static func seeded(feed: PostgresStore.ChangeFeedKind = .triggers) async throws -> (
        PostgresStore, namespace: String
    ) {
        let namespace = try await NativeTables.namespace(ddl)
        var options = PostgresStore.Options(readerCount: 2)
        options.changeFeed = feed
        let store = try await NativeTables.open(try Schema([entity]), in: namespace, options: options)
        try await store.write { tx in
            try tx.insert(first, into: "Typed")
            try tx.insert(second, into: "Typed")
            try tx.insert(["id": 3], into: "Typed")
        }
        try await NativeTables.otherClient(third, in: namespace)
        return (store, namespace)
    }

    @Test func everyMappedTypeIsReadWrittenFilteredAndSortedAsItsAttributeType() async throws {
        let (store, namespace) = try await Self.seeded()
        let rows = Dictionary(
            uniqueKeysWithValues: try await store.fetch(FetchRequest(entity: "Typed")).map {
                ($0["id"] ?? .null, $0)
            })
        let first = try #require(rows[1])
        let fourth = try #require(rows[4])
        #expect(first["big"] == .integer(.max) && first["whole"] == .integer(Int64(Int32.max)))
        #expect(first["units"] == 42 && first["amount"] == 1.5 && first["ratio"] == 0.1)
        #expect(first["single"] == .double(Double(Float(0.1))), "real keeps a 32-bit float")
        #expect(first["code"] == "ab", "char(n) reads without its padding")
        #expect(first["docb"] == #"{"a": 1, "b": 2}"#, "jsonb reads as PostgreSQL normalised it")
        #expect(
            first["day"] == .date(NativeTables.date(2024, 1, 31)), "a date keeps the UTC day of the instant written"
        )
        #expect(first["at"] == .date(Self.instant) && first["stamp"] == .date(Self.instant))
        #expect(rows[2]?["at"] == .date(NativeTables.date(1969, 7, 20, 20, 17)))
        #expect(fourth["ref"] == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12", "uuid reads in lowercase")
        #expect(fourth["code"] == "zz" && fourth["tag"] == "BANANA" && fourth["mood"] == "ok")
        #expect(fourth["ratio"] == 0.1, "numeric reads as the nearest double")
        #expect(fourth["amount"] == 99999999.9999 && fourth["day"] == .date(NativeTables.date(2024, 2, 29)))
        #expect(fourth["at"] == .date(Self.instant), "timestamp without time zone reads as UTC")
        #expect(rows[3]?["tag"] == .null && rows[3]?["day"] == .null)

        let described = try await NativeTables.describe("typed", in: namespace)
        #expect(described.primaryKey == .integer("id"))
        #expect(
            described.attributes.map { [$0.name, $0.type.rawValue, "\($0.isOptional)"] }
                == Self.entity.attributes.map { [$0.name, $0.type.rawValue, "\($0.isOptional)"] })

        let selected = try await NativeTables.expectMemoryAgrees(
            on: store, entity: "Typed", predicates: Self.predicates, sorts: Self.sorts)
        // Where a column's own semantics differ from its attribute type's, the answer is the attribute type's.
        #expect(selected[0] == [1], "citext compares as text: only 'apple' equals 'apple'")
        #expect(selected[1] == [1, 2, 4], "citext orders as text: 'BANANA' < 'b'")
        #expect(selected[2] == [1], "enums compare as text: only 'sad' > 'ok'")
        #expect(selected[3] == [1], "char(n) compares without its padding")
        #expect(selected[4] == [1], "a uuid in canonical form finds its row")
        #expect(selected[5] == [], "an uppercase uuid is another text")
        #expect(selected[6] == [1, 4], "numeric compares as the double it reads as")
        #expect(selected[7] == [1, 2], "a date compares as midnight UTC")
        await store.close()
    }

    /// Values of the types the store reads through casts also decode when a raw query returns them as they are.
    @Test func binaryResultsDecodeDatesNumericsAndJSON() async throws {
        let rows = try await PostgresServer.query(
            """
            SELECT '2024-02-29'::date AS day, '1999-12-31'::date AS before, '-12345.678'::numeric AS amount,
                '0.000012'::numeric AS small, '1e30'::numeric AS large, 'NaN'::numeric AS nan, '0'::numeric AS zero,
                '{"a": [1]}'::json AS doc, '{"b": 2, "a": 1}'::jsonb AS docb
            """)
        let row = try #require(rows.first)
        #expect(
            row["day"] == .date(NativeTables.date(2024, 2, 29))
                && row["before"] == .date(NativeTables.date(1999, 12, 31)))
        #expect(
            row["amount"] == -12345.678 && row["small"] == 0.000012 && row["large"] == 1e30 && row["zero"] == 0.0)
        #expect(row["nan", as: Double.self]?.isNaN == true)
        #expect(row["doc"] == #"{"a": [1]}"# && row["docb"] == #"{"a": 1, "b": 2}"#)
    }

    /// The first eight are checked one by one above; all of them agree with memory.
    static var predicates: [FetchPredicate] {
        let key = FetchPredicate.key
        return [
            key("tag") == "apple", key("tag") < "b", key("mood") > "ok", key("code") == "ab",
            key("ref") == .text(refA), key("ref") == .text(refA.uppercased()), key("ratio") == 0.1,
            key("day") < .date(NativeTables.date(2024, 1, 31, 12)),
            key("mood") == "happy", key("code").endsWith("b"), key("code") == "ab ", key("code").like("ab*"),
            key("ref").beginsWith("a0"), key("ref") < "b", key("ref").in([refA, refB.uppercased()]),
            key("amount") > 1.0, key("amount") == 1.5, key("units") == 42, key("units") < 2.5,
            key("single") == 0.1, key("single") > 0.1, key("tiny") < -100, key("whole") > 2.5,
            key("day") == .date(NativeTables.date(2024, 1, 31)),
            key("day").between(
                Value.date(NativeTables.date(1999, 12, 31, 1)), Value.date(NativeTables.date(2024, 3, 1))),
            key("at") > .date(NativeTables.date(1970, 1, 1)), key("at") == .date(instant), key("at") != .null,
            key("stamp") >= .date(instant), key("doc").contains(#""a""#), key("docb") == #"{"a": 1, "b": 2}"#,
            key("label").beginsWith("al", .caseInsensitive), key("tag").contains("an", .caseInsensitive),
            key("mood").in(["ok", "sad"]), key("flag") == false, key("bytes") == .blob(Data([1, 2]))
        ]
    }

    static var sorts: [[FetchSortDescriptor]] {
        [
            "tag", "mood", "code", "ref", "amount", "units", "ratio", "single", "day", "at", "stamp", "doc", "docb",
            "label", "tiny", "whole", "big"
        ].flatMap { [[.ascending($0)], [.descending($0)]] }
            + [[.ascending("label", caseInsensitive: true)], [.ascending("tag", caseInsensitive: true)]]
    }

    /// With the logical feed, every change reaches the unlimited controllers through the rows the log carried,
    /// whatever the column types, and the store reads at most once per transaction after the first fetches (the
    /// oracle reads through a store of its own).
    @Test(arguments: [PostgresStore.ChangeFeedKind.triggers, .logical])
    func liveControllersFollowWritesToNativeColumnsFromThisStoreAndAnotherClient(feed: PostgresStore.ChangeFeedKind)
        async throws
    {
        let (store, namespace) = try await Self.seeded(feed: feed)
        var oracleOptions = PostgresStore.Options(readerCount: 1)
        oracleOptions.changeCapture = false
        let oracle = try await NativeTables.open(try Schema([Self.entity]), in: namespace, options: oracleOptions)
        let byMood = FetchRequest(
            entity: "Typed", predicate: .key("mood") != "sad",
            sortDescriptors: [.ascending("mood"), .descending("tag")],
            sectionNameKeyPath: "mood")
        let recent = FetchRequest(
            entity: "Typed", predicate: .key("at") > .date(NativeTables.date(1970, 1, 1)),
            sortDescriptors: [.ascending("day"), .descending("ratio"), .ascending("code")], fetchLimit: 2)
        let byRef = FetchRequest(
            entity: "Typed", predicate: .key("ref").beginsWith("a"), sortDescriptors: [.descending("ref")])
        var followed: [(ResultsController<Row>, ResultsRecorder<Row>)] = []
        for request in [byMood, byRef, recent] {
            followed.append(try await NativeTables.follow(request, on: store))
        }
        let readsAfterFetches = store.readCount.load(ordering: .relaxed)
        let collector = PostgresChangeCaptureTests.Collector(store)
        var transactions = 0
        func converge() async throws {
            transactions += 1
            for (controller, recorder) in followed {
                try await ResultsOracle.converge(controller, recorder, in: oracle)
            }
        }
        try await store.write { tx in
            try tx.insert(
                [
                    "id": 5, "mood": "ok", "tag": "cherry", "ref": "a1eebc99-9c0b-4ef8-bb6d-6bb9bd380a15",
                    "at": .date(NativeTables.date(2000, 1, 1)), "day": .date(NativeTables.date(2000, 1, 1))
                ], into: "Typed")
        }
        try await converge()
        try await store.write { tx in
            try tx.update("Typed", key: 1, set: ["mood": "happy", "code": "a", "ratio": 3.75])
        }
        try await converge()
        try await store.write { tx in
            try tx.upsert(["id": 2, "tag": "apricot", "at": .date(NativeTables.date(2030, 5, 5, 5))], into: "Typed")
            try tx.upsert(
                [
                    "id": 6, "mood": "sad", "ref": "a9eebc99-9c0b-4ef8-bb6d-6bb9bd380a16",
                    "day": .date(NativeTables.date(1990, 1, 1)),
                    "at": .date(NativeTables.date(1990, 1, 1))
                ], into: "Typed")
            try tx.delete("Typed", key: 3)
        }
        try await converge()
        try await store.write { tx in
            _ = try tx.update("Typed", where: .key("ref") == .text(Self.refA), set: ["tag": "zebra"])
            _ = try tx.update(
                "Typed", where: .key("day") < .date(NativeTables.date(1995, 1, 1)), set: ["mood": "ok"])
        }
        try await converge()
        try await NativeTables.otherClient(
            """
            BEGIN; UPDATE typed SET mood = 'sad', ref = 'A2EEBC99-9C0B-4EF8-BB6D-6BB9BD380A17' WHERE id = 2;
            INSERT INTO typed (id, mood, tag, code, at, day) VALUES \
            (7, 'happy', 'Zed', 'q    ', '2001-02-03 04:05:06', '2001-02-03');
            DELETE FROM typed WHERE id = 4; COMMIT;
            """, in: namespace)
        try await converge()
        #expect(followed[0].0.fetchedObjects.contains { $0["id"] == 7 })
        #expect(
            followed[1].0.fetchedObjects.contains { $0["id"] == 2 },
            "the uuid another client wrote in uppercase reads in lowercase")
        if feed == .logical {
            // Every change reached the unlimited controllers with the log's rows; the store read at most once per
            // transaction (a window's refill, or a busy controller's own read of what it coalesced).
            let reads = store.readCount.load(ordering: .relaxed) - readsAfterFetches
            let statistics = followed.map(\.0.statistics)
            #expect(reads <= transactions, "\(reads) reads for \(transactions) transactions: \(statistics)")
            for unlimited in statistics.prefix(2) {
                #expect(unlimited.routedUpdates == unlimited.incrementalUpdates && unlimited.fullRefreshes == 0)
            }
            // The log carried every row whole, whatever its columns' types.
            let changes = try await collector.wait(for: transactions)
            for change in changes {
                let typed = try #require(change.tables["typed"])
                #expect(typed.images.count == typed.allKeys.count, "a row without an image: \(typed)")
            }
        }
        await oracle.close()
        await store.close()
    }
}

import Foundation
import Testing

@testable import FetchKit
@testable import FetchKitSession

/// A request's identity in an archive is the same in every process, and equal only for equal requests: a
/// restored state never resumes another scope's, order's or window's list.
@Suite("Request identity")
struct RequestIdentityTests {
    /// Requests that differ from the first in one thing each (scope value, sort direction, limit, section key…),
    /// built anew on each call.
    static func corpus() throws -> [AnyFetchRequest] {
        func card(
            _ predicate: FetchPredicate = .key("owner") == 1, sort: [FetchSortDescriptor] = [.ascending("lane")],
            limit: Int? = nil, section: String? = "lane"
        ) -> AnyFetchRequest {
            AnyFetchRequest(
                entity: "Card", predicate: predicate, sortDescriptors: sort, fetchLimit: limit,
                sectionNameKeyPath: section)
        }
        var prefetching = card()
        prefetching.relationshipKeyPathsForPrefetching = ["owner"]
        return [
            card(), card(.key("owner") == 2), card(.key("owner") == Value.double(1)), card(.key("owner") != 1),
            card(.and([.key("owner") == 1, try FetchPredicate(format: "title BEGINSWITH[c] 'W'")])),
            card(.and([.key("owner") == 1, try FetchPredicate(format: "title BEGINSWITH 'W'")])),
            card(.and([.key("owner") == 1, try FetchPredicate(format: "title BEGINSWITH[c] 'w'")])),
            card(.and([.key("owner") == 1])), card(.or([.key("owner") == 1])), card(!(.key("owner") == 1)),
            card(try FetchPredicate(format: "ANY tags.name == 'x'")),
            card(try FetchPredicate(format: "ALL tags.name == 'x'")),
            card(try FetchPredicate(format: "SUBQUERY(tags, $t, $t.name == 'x').@count > 0")),
            card(try FetchPredicate(format: "SUBQUERY(tags, $u, $u.name == 'x').@count > 0")),
            card(try FetchPredicate(format: "tags.@sum.weight > 2")),
            card(try FetchPredicate(format: "tags.@max.weight > 2")),
            card(try FetchPredicate(format: "position + 1 > 2")), card(try FetchPredicate(format: "position * 1 > 2")),
            card(try FetchPredicate(format: "owner IN {1, 2}")), card(try FetchPredicate(format: "owner IN {2, 1}")),
            card(try FetchPredicate(format: "position BETWEEN {1, 2}")), card(try FetchPredicate(format: "SELF == 1")),
            card(try FetchPredicate(format: "owner == $OWNER")), card(.key("lane") == .key("title")),
            card(.key("owner") == Value.null), card(.key("at") == Value.date(Date(microsecondsSince1970: 1))),
            card(.key("at") == Value.date(Date(microsecondsSince1970: 2))), card(.key("x") == Value.double(-0.0)),
            card(.key("x") == Value.double(0.0)), card(.key("x") == Value.blob(Data([1]))), card(.key("x") == true),
            card(.true), card(.false),
            card(sort: [.descending("lane")]), card(sort: [.ascending("lane", caseInsensitive: true)]),
            card(sort: [.ascending("lane"), .ascending("position")]), card(sort: []),
            card(limit: 10), card(limit: 11), card(section: nil), card(section: "title"),
            AnyFetchRequest(
                entity: "Note", predicate: .key("owner") == 1, sortDescriptors: [.ascending("lane")],
                sectionNameKeyPath: "lane"),
            AnyFetchRequest(
                entity: "Card", predicate: .key("owner") == 1, sortDescriptors: [.ascending("lane")],
                fetchOffset: 5, sectionNameKeyPath: "lane"),
            AnyFetchRequest(
                entity: "Card", predicate: .key("owner") == 1, sortDescriptors: [.ascending("lane")],
                sectionNameKeyPath: "lane", propertiesToFetch: ["title"]),
            prefetching
        ]
    }

    @Test func equalIdentitiesAreEqualRequests() throws {
        let requests = try Self.corpus()
        let again = try Self.corpus()
        for (index, request) in requests.enumerated() {
            #expect(RequestIdentity(request) == RequestIdentity(again[index]), "\(index) built twice")
            for (other, candidate) in requests.enumerated() where other != index {
                #expect(
                    (RequestIdentity(request) == RequestIdentity(candidate)) == (request == candidate),
                    "\(index) and \(other)")
            }
        }
        // The same predicate from a format string and from the builder: key offsets are not part of it.
        let built = AnyFetchRequest(entity: "Card", predicate: .key("owner") == 1)
        let parsed = AnyFetchRequest(entity: "Card", predicate: try FetchPredicate(format: "owner == 1"))
        #expect(built == parsed && RequestIdentity(built) == RequestIdentity(parsed))
    }

    /// The bytes are the same in every process (no hash seed, no dictionary order): pinned.
    @Test func theIdentityIsTheSameInEveryProcess() {
        let request = AnyFetchRequest(
            entity: "Card", predicate: .key("owner") == 7, sortDescriptors: [.descending("lane")], fetchLimit: 3,
            sectionNameKeyPath: "lane")
        let hex = RequestIdentity(request).bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == Self.pinned)
    }

    static let pinned =
        "0443617264040001056f776e6572023d3d01010700000000000000000001"
        + "046c616e650000010300000000000000000000000000000001046c616e650000"

    /// Each field the identity writes, by type: a field added to one of them must be written too.
    @Test func theIdentityWritesEveryFieldOfARequest() throws {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let request = AnyFetchRequest(entity: "Card")
        let storage = try #require(Mirror(reflecting: request).children.first?.value)
        let fields = try #require(Mirror(reflecting: storage).children.first?.value)
        #expect(
            labels(fields) == [
                "entityName", "predicate", "sortDescriptors", "fetchLimit", "fetchOffset", "sectionNameKeyPath",
                "propertiesToFetch", "relationshipKeyPathsForPrefetching"
            ])
        #expect(labels(FetchSortDescriptor("a")) == ["key", "ascending", "caseInsensitive"])
        let comparison = FetchPredicate.Comparison(.key("a"), .equal, .value(1))
        #expect(labels(comparison) == ["lhs", "op", "rhs", "options", "quantifier"])
        let subquery = FetchPredicate.Subquery(collection: "tags", variable: "t", predicate: .true)
        #expect(labels(subquery) == ["collection", "variable", "predicate"])
        #expect(labels(FetchPredicate.Key("a")) == ["components", "offset"])
    }
}

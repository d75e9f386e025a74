import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Testing

@testable import FetchKit

/// The followers of shared results live in a contiguous array that forwarding walks in place: adding is
/// idempotent, a removal moves the last follower into the gap, and a leader's successor is the first live one.
@Suite("Shared results' members")
struct SharedMembersTests {
    private func controllers(_ count: Int, store: InMemoryStore) -> [ResultsController<Row>] {
        (0..<count).map { _ in
            ResultsController(store: store, request: FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        }
    }

    private func ids(_ members: SharedResults<Row>.Members) -> [ObjectIdentifier] {
        members.followers.map(\.id)
    }

    @Test func removalMovesTheLastFollowerIntoTheGap() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        let all = controllers(5, store: store)
        var members = SharedResults<Row>.Members(leader: all[0])
        for controller in all[1...] { members.add(controller) }
        members.add(all[2])
        #expect(ids(members) == all[1...].map(ObjectIdentifier.init))
        members.remove(ObjectIdentifier(all[2]))
        #expect(ids(members) == [all[1], all[4], all[3]].map(ObjectIdentifier.init))
        // Removing a controller that does not follow changes nothing.
        members.remove(ObjectIdentifier(all[0]))
        members.remove(ObjectIdentifier(all[2]))
        #expect(ids(members) == [all[1], all[4], all[3]].map(ObjectIdentifier.init))
        members.remove(ObjectIdentifier(all[3]))
        #expect(ids(members) == [all[1], all[4]].map(ObjectIdentifier.init))
        // A removed follower can join again.
        members.add(all[2])
        #expect(ids(members) == [all[1], all[4], all[2]].map(ObjectIdentifier.init))
        await store.close()
    }

    @Test func theSuccessorIsTheFirstLiveFollower() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        let kept = controllers(2, store: store)
        var members = SharedResults<Row>.Members(leader: kept[0])
        do {
            // A follower released without leaving: its weak reference is empty.
            let released = controllers(1, store: store)[0]
            members.add(released)
        }
        members.add(kept[1])
        #expect(members.followers.count == 2)
        let successor = members.removeFirstLive()
        #expect(successor === kept[1])
        #expect(members.isEmpty)
        #expect(members.removeFirstLive() == nil)
        await store.close()
    }
}

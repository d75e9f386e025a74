import Synchronization
import Testing

@testable import FetchKit

/// The append-only storage of snapshots: copies share it, each sees only its own elements, appends to the
/// newest copy are in place and appends to an older one move it to a private copy.
@Suite("AppendOnlyArray")
struct AppendOnlyArrayTests {
    /// A class element, to see that every stored element is released exactly once.
    final class Tracked: Sendable {
        let value: Int
        let onDeinit: @Sendable () -> Void
        init(_ value: Int, onDeinit: @escaping @Sendable () -> Void) {
            self.value = value
            self.onDeinit = onDeinit
        }
        deinit { onDeinit() }
    }

    @Test func appendsAcrossChunksAndReadsBack() {
        var array = AppendOnlyArray<Int>()
        for value in 0..<5_000 { array.append(value * 3) }
        #expect(array.count == 5_000)
        #expect((0..<5_000).allSatisfy { array[$0] == $0 * 3 })
    }

    @Test func copiesKeepTheirOwnElements() {
        var a = AppendOnlyArray<Int>()
        for value in 0..<10 { a.append(value) }
        let old = a
        a.append(100)  // in place: `old` never reads slot 10
        var b = old
        b.append(200)  // slot 10 is taken: `b` copies the chunk
        b.append(201)
        a.append(101)
        #expect(old.count == 10 && a.count == 12 && b.count == 12)
        #expect((0..<10).allSatisfy { a[$0] == $0 && b[$0] == $0 && old[$0] == $0 })
        #expect([a[10], a[11]] == [100, 101])
        #expect([b[10], b[11]] == [200, 201])
    }

    /// Forks at a chunk boundary, inside a later chunk and inside a growing first chunk all stay separate.
    @Test(arguments: [0, 3, 16, 700, 1_024, 2_500])
    func forksAtAnyLengthStaySeparate(length: Int) {
        var base = AppendOnlyArray<Int>()
        for value in 0..<length { base.append(value) }
        var copies = [base, base, base]
        for round in 0..<1_500 {
            for index in copies.indices { copies[index].append(-(index + 1) * 100_000 - round) }
        }
        for (index, copy) in copies.enumerated() {
            #expect(copy.count == length + 1_500)
            #expect((0..<length).allSatisfy { copy[$0] == $0 })
            #expect((0..<1_500).allSatisfy { copy[length + $0] == -(index + 1) * 100_000 - $0 })
        }
        #expect(base.count == length)
    }

    /// An array with reserved room, copied before and after its first append: each copy keeps its own
    /// elements, whichever copy takes the reserved chunk first.
    @Test(arguments: [0, 1, 5, 1_024])
    func reservedRoomIsTakenOnce(length: Int) {
        let empty = AppendOnlyArray<Int>(reservingCapacity: 5)
        var copies = [empty, empty, empty]
        for round in 0..<(length + 20) {
            for index in copies.indices { copies[index].append(index * 100_000 + round) }
        }
        for (index, copy) in copies.enumerated() {
            #expect(copy.count == length + 20)
            #expect((0..<copy.count).allSatisfy { copy[$0] == index * 100_000 + $0 })
        }
        #expect(empty.count == 0)
        var reserved = AppendOnlyArray<Int>(reservingCapacity: length)
        for value in 0..<length { reserved.append(value) }
        let fork = reserved
        reserved.append(-1)
        #expect(reserved.count == length + 1 && fork.count == length)
        #expect((0..<length).allSatisfy { reserved[$0] == $0 && fork[$0] == $0 } && reserved[length] == -1)
    }

    @Test func everyElementIsReleasedOnce() {
        let released = Mutex(0)
        do {
            var a = AppendOnlyArray<Tracked>()
            for value in 0..<3_000 { a.append(Tracked(value) { released.withLock { $0 += 1 } }) }
            var b = a
            for value in 0..<100 { b.append(Tracked(value) { released.withLock { $0 += 1 } }) }
            a.append(Tracked(-1) { released.withLock { $0 += 1 } })
            #expect(a[3_000].value == -1 && b[3_000].value == 0)
            #expect(released.withLock { $0 } == 0)
        }
        #expect(released.withLock { $0 } == 3_101)
    }
}

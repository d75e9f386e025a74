import FetchKit
import Foundation
import Synchronization

/// A recorder of a results controller's callbacks.
public typealias ResultsRecorder<Object: Sendable> = BatchRecorder<ResultsController<Object>>

/// A recorder of a multi-controller's callbacks.
public typealias MultiResultsRecorder<Object: Sendable> = BatchRecorder<MultiResultsController<Object>>

/// A delegate that records every callback a results controller (or a multi-controller) makes, in order,
/// and which controllers sent them.
///
/// ```swift
/// let recorder = ResultsRecorder<Row>()
/// controller.delegate = recorder
/// // … writes …
/// try recorder.checkCallbackOrder()
/// recorder.updates.last?.changeset
/// ```
public final class BatchRecorder<Controller: DelegatingController>: ResultsControllerDelegate, Sendable
where Controller.Section == ResultsSection<Controller.Object>, Controller.Update == ResultsBatch<Controller.Object> {
    /// The controller's object type.
    public typealias Object = Controller.Object

    /// One recorded callback.
    public enum Event: Sendable {
        case willChange
        case section(ResultsChangeType, old: Int?, new: Int?, name: String)
        case row(ResultsChangeType, old: RowPath?, new: RowPath?)
        case didChange
        case didApply(ResultsBatch<Object>)
    }

    private let recorded = Mutex<[Event]>([])
    private let recordedSenders = Mutex<Set<ObjectIdentifier>>([])
    private let recordedFailures = Mutex<[FetchKitError]>([])
    /// Seconds each batch's `didApply` blocks the controller, as a slow consumer would.
    public let delay: Duration

    /// The failures the controller reported (`didFailWith`), in order.
    public var failures: [FetchKitError] { recordedFailures.withLock { $0 } }

    /// The controllers that sent callbacks so far.
    public var senders: Set<ObjectIdentifier> { recordedSenders.withLock { $0 } }

    /// Creates an empty recorder.
    public init(delay: Duration = .zero) {
        self.delay = delay
    }

    /// Every callback so far.
    public var events: [Event] { recorded.withLock { $0 } }

    /// Every whole batch so far (from `didApply`).
    public var updates: [ResultsBatch<Object>] {
        events.compactMap { if case .didApply(let update) = $0 { return update } else { return nil } }
    }

    /// Forgets what was recorded.
    public func reset() {
        recorded.withLock { $0.removeAll() }
        recordedSenders.withLock { $0.removeAll() }
    }

    /// Checks the batch contract's order: will-change, section changes, row changes, did-change, the whole
    /// batch; and that the individual callbacks say exactly what the batch's changeset says.
    public func checkCallbackOrder() throws(OracleFailure) {
        var batch: [Event] = []
        for event in events {
            batch.append(event)
            guard case .didApply(let update) = event else { continue }
            try Self.check(batch, against: update)
            batch.removeAll()
        }
        guard batch.isEmpty else { throw OracleFailure("a batch did not end with didApply: \(batch)") }
    }

    private static func check(_ batch: [Event], against update: ResultsBatch<Object>) throws(OracleFailure) {
        guard let changeset = update.changeset else { throw OracleFailure("a delegate batch without a changeset") }
        guard batch.count >= 3, case .willChange = batch[0], case .didChange = batch[batch.count - 2] else {
            throw OracleFailure("callbacks out of order: \(batch)")
        }
        var sections: [Event] = []
        var rows: [Event] = []
        for event in batch.dropFirst().dropLast(2) {
            switch event {
            case .section:
                guard rows.isEmpty else { throw OracleFailure("a section change after a row change: \(batch)") }
                sections.append(event)
            case .row: rows.append(event)
            default: throw OracleFailure("unexpected callback inside a batch: \(event)")
            }
        }
        let expectedSections =
            changeset.sectionDeletes.count + changeset.sectionInserts.count
            + changeset.sectionMoves.count
        let expectedRows =
            changeset.rowDeletes.count + changeset.rowInserts.count + changeset.rowMoves.count
            + changeset.rowUpdates.count
        guard sections.count == expectedSections, rows.count == expectedRows else {
            throw OracleFailure(
                "callbacks (\(sections.count) sections, \(rows.count) rows) differ from the changeset "
                    + "(\(expectedSections), \(expectedRows))")
        }
    }

    // MARK: ResultsControllerDelegate

    private func record(_ event: Event, from sender: AnyObject) {
        recorded.withLock { $0.append(event) }
        recordedSenders.withLock { _ = $0.insert(ObjectIdentifier(sender)) }
    }

    public func controllerWillChangeContent(_ controller: Controller) {
        record(.willChange, from: controller)
    }

    public func controller(
        _ controller: Controller, didChange section: ResultsSection<Object>, atSectionIndex: Int?,
        for type: ResultsChangeType, newSectionIndex: Int?
    ) {
        record(.section(type, old: atSectionIndex, new: newSectionIndex, name: section.name), from: controller)
    }

    public func controller(
        _ controller: Controller, didChange object: Object, at rowPath: RowPath?,
        for type: ResultsChangeType, newRowPath: RowPath?
    ) {
        record(.row(type, old: rowPath, new: newRowPath), from: controller)
    }

    public func controllerDidChangeContent(_ controller: Controller) {
        record(.didChange, from: controller)
    }

    public func controller(_ controller: Controller, didApply update: ResultsBatch<Object>) {
        record(.didApply(update), from: controller)
        if delay > .zero {
            // A slow consumer: blocks the controller's task, as a delegate doing slow work would.
            let (seconds, attoseconds) = delay.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) * 1e-18)
        }
    }

    public func controller(_ controller: Controller, didFailWith error: FetchKitError) {
        recordedFailures.withLock { $0.append(error) }
    }
}

import FetchKit

/// Who hears of a schema evolution's steps as a store applies them (`SchemaPolicy.evolve`): a tool binds one to the
/// task that opens the store (the `fetchkit` tool's progress line); a backend reads it there, before it leaves for
/// its writer thread, and applies its plan through it.
///
/// ```swift
/// let progress = SchemaProgress.current           // in the opening task
/// try await writer.run { connection in
///     try progress.applying(plan) { step in try connection.run(step.sql) }
/// }
/// ```
public struct SchemaProgress: Sendable {
    /// Called before each step with the steps done so far and their total, then once with both equal (no step).
    public let report: @Sendable (_ done: Int, _ total: Int, _ step: SchemaPlan.Step?) -> Void

    public init(_ report: @escaping @Sendable (_ done: Int, _ total: Int, _ step: SchemaPlan.Step?) -> Void) {
        self.report = report
    }

    /// The progress the task opening a store listens with, if any.
    @TaskLocal public static var current: SchemaProgress?

    /// Applies `plan`'s steps with `apply`, reporting each before it runs and the end after the last.
    public func applying(_ plan: SchemaPlan, _ apply: (SchemaPlan.Step) throws -> Void) rethrows {
        for (index, step) in plan.steps.enumerated() {
            report(index, plan.steps.count, step)
            try apply(step)
        }
        report(plan.steps.count, plan.steps.count, nil)
    }
}

extension Optional where Wrapped == SchemaProgress {
    /// Applies `plan`'s steps with `apply`, reporting them when there is a progress to report to.
    public func applying(_ plan: SchemaPlan, _ apply: (SchemaPlan.Step) throws -> Void) rethrows {
        guard let progress = self else {
            for step in plan.steps { try apply(step) }
            return
        }
        try progress.applying(plan, apply)
    }
}

/// Who hears of a schema evolution's steps as a store applies them (``SchemaPolicy/evolve``): bound to the task
/// that opens the store, read by the backend before it leaves for its writer thread. The `fetchkit` tool's
/// progress line.
package struct SchemaProgress: Sendable {
    /// Called before each step with the steps done so far and their total, then once with both equal (no step).
    package let report: @Sendable (_ done: Int, _ total: Int, _ step: SchemaPlan.Step?) -> Void

    package init(_ report: @escaping @Sendable (_ done: Int, _ total: Int, _ step: SchemaPlan.Step?) -> Void) {
        self.report = report
    }

    /// The progress the task opening a store listens with, if any.
    @TaskLocal package static var current: SchemaProgress?

    /// Applies `plan`'s steps with `apply`, reporting each before it runs and the end after the last.
    package func applying(_ plan: SchemaPlan, _ apply: (SchemaPlan.Step) throws -> Void) rethrows {
        for (index, step) in plan.steps.enumerated() {
            report(index, plan.steps.count, step)
            try apply(step)
        }
        report(plan.steps.count, plan.steps.count, nil)
    }
}

extension Optional where Wrapped == SchemaProgress {
    /// Applies `plan`'s steps with `apply`, reporting them when there is a progress to report to.
    package func applying(_ plan: SchemaPlan, _ apply: (SchemaPlan.Step) throws -> Void) rethrows {
        guard let progress = self else {
            for step in plan.steps { try apply(step) }
            return
        }
        try progress.applying(plan, apply)
    }
}

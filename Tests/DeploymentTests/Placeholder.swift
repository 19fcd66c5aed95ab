// Placeholder so the package builds while the deployment tests are written; delete when real tests exist.

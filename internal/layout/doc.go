// Package layout holds no code: its tests keep the module's package
// layout as the layout table of CONTRIBUTING.md draws it.
//
// They read the import lines of every Go file in the module, for every
// platform, and fail when a package other than the listed ones imports
// golang.org/x/sys/unix, when a package under internal/ imports a package
// above its level, when code other than a test imports the test helpers
// of internal/testing/, when an import under kinds/ runs against the
// kinds' one-way arrows (a kind imports only the kit and the floor below
// it; the stages reach a kind through the registry), when a package
// other than model and validate imports internal/seal (only validation
// makes a model), when generate imports validate (rendering takes the
// validated model), or when the layout table of CONTRIBUTING.md misses a
// package or names one that is gone.
// They also read every package-level variable, and fail when an exported
// one holds a slice, a map or a pointer that an importer could change for
// all the others.
package layout

package store

// PruneDiffActions is how many actions of a plan get their own diff
// (PruneAction.Diff); later ones have none, and Plan.Preview makes it on
// demand. Each diff replays the index, so a folder of a million orphan
// files would otherwise take minutes to plan; the plan's whole Diff is
// always made.
const PruneDiffActions = 1000

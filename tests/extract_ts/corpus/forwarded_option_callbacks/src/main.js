import { get, getJson } from "./http";

function showUser(user) {}

function showError(err) {}

function done(data) {}

function failed(err) {}

get("/user", showUser, showError);
getJson("/list", { done, failed });
